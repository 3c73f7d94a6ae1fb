import { describe, expect, it } from 'vitest';
import { richDocOf, richPlainText } from './richText';

describe('rich-text values (a Tiptap document’s JSON text, or plain text)', () => {
  const doc = {
    type: 'doc',
    content: [
      {
        type: 'paragraph',
        content: [
          { type: 'text', text: '周四户外活动，' },
          { type: 'text', text: '请穿运动鞋', marks: [{ type: 'bold' }] },
        ],
      },
      {
        type: 'bulletList',
        content: [{ type: 'listItem', content: [{ type: 'paragraph', content: [{ type: 'text', text: '带水杯' }] }] }],
      },
    ],
  };

  it('reads a document from its JSON text', () => {
    expect(richDocOf(JSON.stringify(doc))).toEqual(doc);
  });

  it('turns plain text (and text that only looks like JSON) into paragraphs, one a line', () => {
    expect(richDocOf('第一行\n第二行').content?.map((p) => p.content?.[0]?.text)).toEqual(['第一行', '第二行']);
    expect(richDocOf('{not json').content?.[0]?.content?.[0]?.text).toBe('{not json');
    expect(richDocOf('{"type":"paragraph"}').content?.[0]?.type).toBe('paragraph');
    expect(richDocOf('')).toEqual({ type: 'doc', content: [] });
  });

  it('gives a one-line preview of the words', () => {
    expect(richPlainText(JSON.stringify(doc))).toBe('周四户外活动，请穿运动鞋 带水杯');
    expect(richPlainText(null)).toBe('');
  });
});
