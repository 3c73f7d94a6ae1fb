import { describe, expect, it } from 'vitest';
import { at, diffRows, showValue, step } from './replay';

const doc = (...texts: string[]) => ({
  type: 'doc',
  content: texts.map((text) => ({ type: 'paragraph', content: [{ type: 'text', text }] })),
});

describe('replay model', () => {
  it('steps within the stream’s versions', () => {
    expect(step(0, -1, 6)).toBe(0);
    expect(step(2, 1, 6)).toBe(3);
    expect(step(6, 1, 6)).toBe(6);
  });

  it('shows values as a line of text: rich text as its words, absent as the empty mark', () => {
    expect(showValue(null, '—')).toBe('—');
    expect(showValue('秋天', '—')).toBe('秋天');
    expect(showValue(3, '—')).toBe('3');
    expect(showValue(doc('一', '二'), '—')).toBe('一\n二');
    // An instant as recorded (the tenant's wall time and offset) as the platform shows times.
    expect(showValue('2026-11-21T09:40:00+08:00', '—')).toBe('2026-11-21 09:40:00');
    expect(showValue('2026-11-21T09:40:00.123+08:00', '—')).toBe('2026-11-21 09:40:00');
    expect(showValue('2026-11-21', '—')).toBe('2026-11-21');
  });

  it('groups changes inside a rich-text field into one row of the whole field', () => {
    const before = { status: 'returned', content: { homeCooperation: doc('一') } };
    const after = { status: 'trial', content: { homeCooperation: doc('一', '二') } };
    const rows = diffRows(
      [
        { path: 'content.homeCooperation.content.1', op: 'added', from: null, to: {} },
        { path: 'status', op: 'changed', from: 'returned', to: 'trial' },
      ],
      before,
      after,
    );
    expect(rows.map((r) => r.path)).toEqual(['content.homeCooperation', 'status']);
    expect(showValue(rows[0]?.to, '')).toBe('一\n二');
    expect(at(after, 'content.homeCooperation.type')).toBe('doc');
  });
});
