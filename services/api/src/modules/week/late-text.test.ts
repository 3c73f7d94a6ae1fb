import { describe, expect, it } from 'vitest';
import type { WeekDocContent } from '@sprout/contracts';
import { addedText, lateFields, richPlain } from './late-text';

const week = (patch: Partial<WeekDocContent> = {}): WeekDocContent => ({
  classId: '1',
  weekNo: 1,
  startDate: '2026-11-30',
  endDate: '2026-12-04',
  theme: '风',
  weeklyGoals: '',
  environment: '',
  homeCooperation: '',
  reflection: '',
  days: [
    {
      date: '2026-11-30',
      morning: '',
      groupTeaching: '',
      regional: '',
      outdoor: '',
      life: '',
      afternoon: '',
      notes: '',
    },
  ],
  ...patch,
});
type Rich = WeekDocContent['weeklyGoals'];
const paragraph = (text: string) => ({ type: 'paragraph', content: [{ type: 'text', text }] });
const para = (text: string) => ({ type: 'doc', content: [paragraph(text)] }) as unknown as Rich;

describe('the text typed after a submit, field by field', () => {
  it('finds what was added in the middle, at the end, or nowhere', () => {
    expect(addedText('晨间活动', '晨间户外活动')).toBe('户外');
    expect(addedText('风', '风车转转')).toBe('车转转');
    expect(addedText('同样', '同样')).toBe('');
  });

  it('reads a rich field as plain text, one line per paragraph', () => {
    expect(richPlain({ type: 'doc', content: [paragraph('一'), paragraph('二')] })).toBe('一\n二');
    expect(richPlain('')).toBe('');
  });

  it('offers only the fields she changed, and not those the document already reads as she left them', () => {
    const submitted = week();
    const mine = week({
      theme: '风车',
      weeklyGoals: para('认识风'),
      days: [{ ...submitted.days[0], morning: '放风筝' } as WeekDocContent['days'][number]],
    });
    expect(lateFields(submitted, mine, null)).toEqual([
      { path: 'theme', text: '风车', added: '车', rich: false },
      { path: 'days.0.morning', text: '放风筝', added: '放风筝', rich: false },
      { path: 'weeklyGoals', text: '认识风', added: '认识风', rich: true },
    ]);
    // Returned: the document already holds her theme (her device sent it back) — not offered again.
    expect(lateFields(submitted, mine, week({ theme: '风车' })).map((f) => f.path)).toEqual([
      'days.0.morning',
      'weeklyGoals',
    ]);
    // Deleting only adds nothing: not offered.
    expect(lateFields(week({ theme: '风车' }), week({ theme: '风' }), null)).toEqual([]);
  });
});
