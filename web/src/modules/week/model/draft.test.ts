import { describe, expect, it } from 'vitest';
import {
  applyDayPlanTemplate,
  applyWeekTemplate,
  dayPlanTemplateContent,
  emptySegment,
  newDayPlanContent,
  newWeekContent,
  normalizeWeekContent,
  weekTemplateContent,
  withStartDate,
} from './content';
import { createLocalDraft, type DraftEvent } from './draft';
import type { RichDoc, WeekContent } from './types';
import { WEEK_RICH_FIELDS } from './types';

const doc = (text: string): RichDoc => ({
  type: 'doc',
  content: [{ type: 'paragraph', content: [{ type: 'text', text }] }],
});

describe('the week draft store', () => {
  it('reads and writes header fields and day cells by path, keeping untouched branches', () => {
    const draft = createLocalDraft<WeekContent>(newWeekContent('2026-11-18', '1'), WEEK_RICH_FIELDS);
    const events: DraftEvent[] = [];
    draft.subscribe((e) => events.push(e));
    const before = draft.snapshot();

    draft.set(['theme'], '秋天来了');
    draft.set(['days', 2, 'morning'], '晨间律动');

    const after = draft.snapshot();
    expect(draft.get(['theme'])).toBe('秋天来了');
    expect(after.days[2]?.morning).toBe('晨间律动');
    expect(after.days[0]).toBe(before.days[0]); // structural sharing: React re-renders only what changed
    expect(before.theme).toBe(''); // snapshots are immutable
    expect(events).toEqual([
      { origin: 'local', path: ['theme'] },
      { origin: 'local', path: ['days', 2, 'morning'] },
    ]);
    expect(draft.revision()).toBe(2);
  });

  it('ignores writes that change nothing', () => {
    const draft = createLocalDraft<WeekContent>(newWeekContent('2026-11-18'));
    draft.set(['theme'], '');
    expect(draft.revision()).toBe(0);
  });

  it('binds rich fields: starts from the stored value as a document, writes the editor JSON back', () => {
    const content = { ...newWeekContent('2026-11-18'), weeklyGoals: '第一行\n第二行' };
    const draft = createLocalDraft<WeekContent>(content, WEEK_RICH_FIELDS);
    const binding = draft.rich('weeklyGoals');
    expect(binding.initial?.content).toHaveLength(2);
    expect(binding.extensions).toEqual([]);
    binding.write?.(doc('新目标'));
    expect(draft.snapshot().weeklyGoals).toEqual(doc('新目标'));
  });

  it('tells bound editors when a field is replaced, and that is not a user change unless asked', () => {
    const draft = createLocalDraft<WeekContent>(newWeekContent('2026-11-18'), WEEK_RICH_FIELDS);
    const seen: RichDoc[] = [];
    const stop = draft.rich('reflection').onReplace?.((d) => seen.push(d));
    const events: DraftEvent[] = [];
    draft.subscribe((e) => events.push(e));
    draft.replace({ ...draft.snapshot(), reflection: '反思' });
    draft.replace({ ...draft.snapshot(), reflection: doc('再反思') }, { asChange: true });
    expect(seen).toEqual([doc('反思'), doc('再反思')]);
    expect(events.map((e) => e.origin)).toEqual(['replace', 'local']);
    stop?.();
    draft.replace({ ...draft.snapshot(), reflection: 'x' });
    expect(seen).toHaveLength(2);
  });

  it('leaves an editor alone when a replacement carries its field over unchanged (a proposed week keeps the caret)', () => {
    const draft = createLocalDraft<WeekContent>(newWeekContent('2026-11-18'), WEEK_RICH_FIELDS);
    draft.rich('reflection').write?.(doc('正在写'));
    const seen: RichDoc[] = [];
    draft.rich('reflection').onReplace?.((d) => seen.push(d));
    draft.replace({ ...draft.snapshot(), weekNo: 14 });
    expect(seen).toEqual([]);
    expect(draft.snapshot()).toMatchObject({ weekNo: 14, reflection: doc('正在写') });
  });

  it('inserts and removes list items', () => {
    const draft = createLocalDraft({ segments: [{ time: '08:00' }] as { time: string }[] });
    draft.insert(['segments'], 1, { time: '09:00' });
    draft.insert(['segments'], 0, { time: '07:30' });
    expect(draft.snapshot().segments.map((s) => s.time)).toEqual(['07:30', '08:00', '09:00']);
    draft.remove(['segments'], 1);
    expect(draft.snapshot().segments.map((s) => s.time)).toEqual(['07:30', '09:00']);
    draft.remove(['segments'], 5);
    expect(draft.revision()).toBe(3);
  });
});

describe('week content', () => {
  it('fills what a partial record lacks: five dated days, every field', () => {
    const c = normalizeWeekContent(
      { classId: 7, startDate: '2026-11-16', theme: '秋天', days: [{ morning: '早操' }] },
      '2026-11-18',
    );
    expect(c.classId).toBe('7');
    expect(c.days.map((d) => d.date)).toEqual(['2026-11-16', '2026-11-17', '2026-11-18', '2026-11-19', '2026-11-20']);
    expect(c.days[0]?.morning).toBe('早操');
    expect(c.endDate).toBe('2026-11-20');
    expect(c.weeklyGoals).toBe('');
  });

  it('moves the days and the end date with the start date', () => {
    const c = withStartDate(newWeekContent('2026-11-18'), '2026-12-07');
    expect(c.endDate).toBe('2026-12-11');
    expect(c.days[4]?.date).toBe('2026-12-11');
  });

  it('saves a template without class and dates, and applies one keeping them', () => {
    const week = { ...newWeekContent('2026-11-18', '9'), theme: '冬天', weeklyGoals: doc('目标') };
    week.days[1] = { ...(week.days[1] as WeekContent['days'][number]), outdoor: '跳绳' };
    const tpl = weekTemplateContent(week);
    expect(tpl).not.toHaveProperty('classId');
    expect(JSON.stringify(tpl)).not.toContain('2026-11');

    const other = newWeekContent('2027-03-03', '5');
    const applied = applyWeekTemplate(other, tpl);
    expect(applied.classId).toBe('5');
    expect(applied.startDate).toBe(other.startDate);
    expect(applied.theme).toBe('冬天');
    expect(applied.weeklyGoals).toEqual(doc('目标'));
    expect(applied.days[1]?.outdoor).toBe('跳绳');
    expect(applied.days[1]?.date).toBe(other.days[1]?.date);
  });
});

describe('day plan content', () => {
  it('starts a half day with the morning segments and a full day with lunch and departure', () => {
    const half = newDayPlanContent('half', '2026-11-23', '7', '9');
    expect(half.segments.map((s) => s.segment)).toEqual(['入园/晨检', '晨间活动', '集体教学', '区域游戏', '户外活动']);
    expect(half).toMatchObject({ classId: '7', weekId: '9', date: '2026-11-23', variant: 'half' });
    const full = newDayPlanContent('full', '2026-11-23');
    expect(full.segments.at(-1)?.segment).toBe('离园');
    expect(full.weekId).toBeNull();
  });

  it('keeps its date, class and week when a template brings other segments', () => {
    const plan = newDayPlanContent('half', '2026-11-23', '7', '9');
    const tpl = dayPlanTemplateContent({
      ...plan,
      segments: [{ ...emptySegment('08:00', '晨间活动'), content: '早操' }],
    });
    expect(tpl).not.toHaveProperty('date');
    const applied = applyDayPlanTemplate(newDayPlanContent('half', '2026-12-01', '5', null), tpl);
    expect(applied).toMatchObject({ date: '2026-12-01', classId: '5', weekId: null });
    expect(applied.segments).toEqual([
      { time: '08:00', segment: '晨间活动', content: '早操', observationFocus: '', teacherRole: '' },
    ]);
    // An empty template changes nothing.
    expect(applyDayPlanTemplate(plan, { segments: [] })).toBe(plan);
  });
});
