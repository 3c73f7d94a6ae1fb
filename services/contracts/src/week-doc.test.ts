import { getSchema } from '@tiptap/core';
import StarterKit from '@tiptap/starter-kit';
import { describe, expect, it } from 'vitest';
import { yXmlFragmentToProsemirrorJSON } from 'y-prosemirror';
import * as Y from 'yjs';
import { type WeekContent, WeekContentSchema } from './week';
import { docToWeekContent, setText, type WeekDocContent, weekContentToDoc } from './week-doc';

// The document shape and the record's content type stay the same type, both ways.
const toDoc = (c: WeekContent): WeekDocContent => c;
const toRecord = (c: WeekDocContent): WeekContent => c;
void toDoc;
void toRecord;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const dates = ['2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27'];
const week: WeekContent = WeekContentSchema.parse({
  classId: '7',
  weekNo: 12,
  startDate: '2026-11-23',
  endDate: '2026-11-27',
  theme: '秋天的秘密',
  weeklyGoals: '认识落叶\n感受秋天',
  environment: {
    type: 'doc',
    content: [
      { type: 'heading', attrs: { level: 3 }, content: [{ type: 'text', text: '自然角' }] },
      {
        type: 'bulletList',
        content: [
          {
            type: 'listItem',
            content: [{ type: 'paragraph', content: [{ type: 'text', text: '树叶标本', marks: [{ type: 'bold' }] }] }],
          },
        ],
      },
    ],
  },
  days: dates.map((date, i) => ({
    date,
    morning: `晨间律动 ${i + 1}`,
    groupTeaching: i === 2 ? '语言：秋天的信 🍂' : '',
    regional: '',
    outdoor: '捡落叶',
    life: '',
    afternoon: '',
    notes: '',
  })),
});

describe('week document', () => {
  it('holds the content in the agreed shape and gives it back', () => {
    const doc = new Y.Doc();
    weekContentToDoc(week, doc);
    const map = doc.getMap('week');
    expect(map.get('classId')).toBe('7');
    expect(map.get('weekNo')).toBe(12);
    expect(map.get('theme')).toBeInstanceOf(Y.Text);
    const days = doc.getArray<Y.Map<unknown>>('days');
    expect(days.length).toBe(5);
    expect(days.get(2).get('groupTeaching')).toBeInstanceOf(Y.Text);
    expect(days.get(2).get('date')).toBe('2026-11-25');
    // Rich fields are top-level XML fragments a Tiptap editor binds with `field`.
    const schema = getSchema([StarterKit]);
    expect(() =>
      schema.nodeFromJSON(yXmlFragmentToProsemirrorJSON(doc.getXmlFragment('environment'))).check(),
    ).not.toThrow();

    const back = docToWeekContent(doc);
    expect(back).toEqual({
      ...week,
      weeklyGoals: {
        type: 'doc',
        content: [
          { type: 'paragraph', content: [{ type: 'text', text: '认识落叶' }] },
          { type: 'paragraph', content: [{ type: 'text', text: '感受秋天' }] },
        ],
      },
      environment: {
        type: 'doc',
        content: [
          { type: 'heading', attrs: { level: 3 }, content: [{ type: 'text', text: '自然角' }] },
          {
            type: 'bulletList',
            content: [
              {
                type: 'listItem',
                content: [
                  { type: 'paragraph', content: [{ type: 'text', text: '树叶标本', marks: [{ type: 'bold' }] }] },
                ],
              },
            ],
          },
        ],
      },
    });
    // What comes back is valid content for the record.
    expect(WeekContentSchema.safeParse(back).success).toBe(true);
  });

  it('survives an encode/decode round trip (what the server stores)', () => {
    const a = new Y.Doc();
    weekContentToDoc(week, a);
    const b = new Y.Doc();
    Y.applyUpdate(b, Y.encodeStateAsUpdate(a));
    expect(docToWeekContent(b)).toEqual(docToWeekContent(a));
  });

  it('writing the same content again changes nothing; a change edits only what differs', () => {
    const doc = new Y.Doc();
    weekContentToDoc(week, doc);
    const updates: Uint8Array[] = [];
    doc.on('update', (u: Uint8Array) => updates.push(u));
    weekContentToDoc(docToWeekContent(doc), doc);
    expect(updates).toHaveLength(0);

    // A concurrent edit elsewhere in the same text survives a content write.
    const other = new Y.Doc();
    Y.applyUpdate(other, Y.encodeStateAsUpdate(doc));
    (other.getMap('week').get('theme') as Y.Text).insert(0, '【大班】');
    weekContentToDoc({ ...docToWeekContent(doc), theme: '秋天的大秘密' }, doc);
    Y.applyUpdate(doc, Y.encodeStateAsUpdate(other));
    expect(docToWeekContent(doc).theme).toBe('【大班】秋天的大秘密');
  });

  it('replaces text by its smallest edit, never splitting an emoji', () => {
    const doc = new Y.Doc();
    const t = doc.getText('t');
    for (const [from, to] of [
      ['abc', 'abXc'],
      ['🍂🍁', '🍂🌰🍁'],
      ['😀', '😁'],
      ['秋天', ''],
      ['', '冬天'],
      ['aaa', 'aa'],
    ] as const) {
      setText(t, from);
      expect(t.toString()).toBe(from);
      setText(t, to);
      expect(t.toString()).toBe(to);
      for (const d of t.toDelta() as Array<{ insert: string }>) expect(d.insert).not.toMatch(LONE_SURROGATE);
    }
  });
});
