import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { docToWeekContent, richToFragment, weekContentToDoc } from '@sprout/contracts';
import type { DraftEvent, DraftPath } from '../model/draft';
import type { WeekContent } from '../model/types';
import { createYWeekDraft, EDIT_ORIGIN, hasWeek } from './store';

const day = (date: string, morning = '') => ({
  date,
  morning,
  groupTeaching: '',
  regional: '',
  outdoor: '',
  life: '',
  afternoon: '',
  notes: '',
});

const CONTENT: WeekContent = {
  classId: '2001',
  weekNo: 3,
  startDate: '2026-11-23',
  endDate: '2026-11-27',
  theme: '秋天来了',
  weeklyGoals: { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: '认识落叶' }] }] },
  environment: '',
  homeCooperation: '和孩子一起捡树叶',
  days: [day('2026-11-23', '晨间律动'), day('2026-11-24'), day('2026-11-25'), day('2026-11-26'), day('2026-11-27')],
  reflection: '',
};

/** Two documents (two browsers) linked through a "server" that can be held back. */
function pair() {
  const a = new Y.Doc();
  const b = new Y.Doc();
  weekContentToDoc(CONTENT, a, 'seed');
  Y.applyUpdate(b, Y.encodeStateAsUpdate(a), 'server');
  let online = true;
  const held: Array<[Y.Doc, Uint8Array]> = [];
  const relay = (to: Y.Doc) => (update: Uint8Array, origin: unknown) => {
    if (origin === 'server') return;
    if (online) Y.applyUpdate(to, update, 'server');
    else held.push([to, update]);
  };
  a.on('update', relay(b));
  b.on('update', relay(a));
  return {
    a,
    b,
    offline() {
      online = false;
    },
    online() {
      online = true;
      for (const [to, update] of held.splice(0)) Y.applyUpdate(to, update, 'server');
    },
  };
}

describe('the Y.Doc-backed week draft', () => {
  it('reads what docToWeekContent reads, and its snapshot is exactly that', () => {
    const { a } = pair();
    const draft = createYWeekDraft(a);
    expect(draft.snapshot()).toEqual(docToWeekContent(a));
    expect(draft.get(['theme'])).toBe('秋天来了');
    expect(draft.get(['weekNo'])).toBe(3);
    expect(draft.get(['days', 0, 'morning'])).toBe('晨间律动');
    expect(draft.get(['homeCooperation'])).toEqual(docToWeekContent(a).homeCooperation);
    expect(hasWeek(a)).toBe(true);
    expect(hasWeek(new Y.Doc())).toBe(false);

    draft.set(['theme'], '秋天来了，树叶黄了');
    draft.set(['days', 2, 'outdoor'], '拍皮球');
    draft.set(['days', 4, 'date'], '2026-11-28');
    draft.set(['weekNo'], 4);
    richToFragment('新的目标', a.getXmlFragment('weeklyGoals'));
    draft.replace({ ...draft.snapshot(), reflection: '孩子们很投入' }, { asChange: true });
    expect(draft.snapshot()).toEqual(docToWeekContent(a));
    expect(draft.snapshot().theme).toBe('秋天来了，树叶黄了');
    expect(draft.get(['days', 2, 'outdoor'])).toBe('拍皮球');
    expect(draft.get(['days', 4, 'date'])).toBe('2026-11-28');
  });

  it('merges concurrent typing in the same text (smallest edits, not replace-all)', () => {
    const link = pair();
    const one = createYWeekDraft(link.a);
    const two = createYWeekDraft(link.b);
    link.offline();
    // Both start from "秋天来了"; each types somewhere else in it.
    one.set(['theme'], '美丽的秋天来了');
    two.set(['theme'], '秋天来了！');
    one.set(['days', 1, 'regional'], '美工区：树叶拼贴');
    two.set(['days', 1, 'regional'], '建构区');
    link.online();
    expect(one.get(['theme'])).toBe('美丽的秋天来了！');
    expect(two.get(['theme'])).toBe('美丽的秋天来了！');
    const cell = one.get(['days', 1, 'regional']) as string;
    expect(cell).toBe(two.get(['days', 1, 'regional']));
    expect(cell).toContain('美工区：树叶拼贴');
    expect(cell).toContain('建构区');
    expect(one.snapshot()).toEqual(two.snapshot());
    expect(one.snapshot()).toEqual(docToWeekContent(link.b));
  });

  it('keeps the identity of what did not change (for useSyncExternalStore)', () => {
    const { a } = pair();
    const draft = createYWeekDraft(a);
    const days = draft.get(['days']);
    const monday = draft.get(['days', 0]);
    const before = draft.snapshot();
    expect(draft.get(['days'])).toBe(days);
    expect(draft.snapshot()).toBe(before);

    draft.set(['theme'], '冬天');
    expect(draft.get(['days'])).toBe(days);
    expect(draft.snapshot()).not.toBe(before);

    draft.set(['days', 3, 'life'], '午睡');
    expect(draft.get(['days'])).not.toBe(days);
    expect(draft.get(['days', 0])).toBe(monday);
    // The same value again changes nothing.
    const rev = draft.revision();
    draft.set(['days', 3, 'life'], '午睡');
    draft.set(['weekNo'], 3);
    expect(draft.revision()).toBe(rev);
  });

  it('tells local edits from remote ones, with the path of a single text', () => {
    const link = pair();
    const one = createYWeekDraft(link.a);
    createYWeekDraft(link.b).set(['days', 2, 'notes'], '带雨衣');
    const heard: DraftEvent[] = [];
    one.subscribe((e) => heard.push(e));
    one.set(['theme'], '秋');
    createYWeekDraft(link.b).set(['days', 2, 'notes'], '带雨衣和雨靴');
    one.replace({ ...one.snapshot(), theme: '冬' });
    expect(heard).toEqual([
      { origin: 'local', path: ['theme'] },
      { origin: 'remote', path: ['days', 2, 'notes'] },
      { origin: 'replace', path: ['theme'] },
    ]);
  });

  it('hands remote text changes (with their delta) to the page before the listeners', () => {
    const link = pair();
    const seen: Array<{ path: DraftPath; text: string; delta: unknown }> = [];
    const order: string[] = [];
    const one = createYWeekDraft(link.a, {
      onRemoteText: (path, text, delta) => {
        seen.push({ path, text, delta });
        order.push('text');
      },
    });
    one.subscribe(() => order.push('listener'));
    one.set(['theme'], '秋天来了呀'); // local: not handed over
    createYWeekDraft(link.b).set(['theme'], '金色的秋天来了呀');
    expect(seen).toEqual([{ path: ['theme'], text: '金色的秋天来了呀', delta: [{ insert: '金色的' }] }]);
    expect(order).toEqual(['listener', 'text', 'listener']);
  });

  it('writes nothing while read-only', () => {
    const { a } = pair();
    let readOnly = true;
    const draft = createYWeekDraft(a, { readOnly: () => readOnly });
    const before = Y.encodeStateVector(a);
    draft.set(['theme'], 'x');
    draft.replace({ ...draft.snapshot(), theme: 'y' }, { asChange: true });
    expect(Y.encodeStateVector(a)).toEqual(before);
    readOnly = false;
    draft.set(['theme'], 'x');
    expect(draft.get(['theme'])).toBe('x');
  });

  it('binds rich fields by name, with the extensions it was given, and no initial content', () => {
    const { a } = pair();
    const draft = createYWeekDraft(a, { richExtensions: (field) => [{ name: field } as never] });
    const binding = draft.rich('environment');
    expect(binding.field).toBe('environment');
    expect(binding.initial).toBeUndefined();
    expect(binding.write).toBeUndefined();
    expect(binding.extensions).toEqual([{ name: 'environment' }]);
  });

  it('edits with the store’s own transaction origin', () => {
    const { a } = pair();
    const origins: unknown[] = [];
    a.on('afterTransaction', (tr: Y.Transaction) => origins.push(tr.origin));
    createYWeekDraft(a).set(['startDate'], '2026-11-30');
    expect(origins).toEqual([EDIT_ORIGIN]);
  });
});
