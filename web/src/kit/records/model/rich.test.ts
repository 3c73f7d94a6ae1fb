import { describe, expect, it } from 'vitest';
import { isRichEmpty, richToText, sameRich, toDoc } from './rich';

describe('rich text values', () => {
  it('shows plain strings from the server as paragraphs', () => {
    expect(toDoc('认识秋天\n\n捡落叶')).toEqual({
      type: 'doc',
      content: [
        { type: 'paragraph', content: [{ type: 'text', text: '认识秋天' }] },
        { type: 'paragraph' },
        { type: 'paragraph', content: [{ type: 'text', text: '捡落叶' }] },
      ],
    });
    expect(toDoc('')).toEqual({ type: 'doc', content: [{ type: 'paragraph' }] });
    expect(toDoc(undefined)).toEqual({ type: 'doc', content: [{ type: 'paragraph' }] });
  });

  it('keeps editor documents as they are', () => {
    const doc = {
      type: 'doc' as const,
      content: [{ type: 'heading', attrs: { level: 3 }, content: [{ type: 'text', text: 'x' }] }],
    };
    expect(toDoc(doc)).toBe(doc);
  });

  it('reads the text of a document: blocks become lines, hard breaks too', () => {
    const doc = {
      type: 'doc' as const,
      content: [
        {
          type: 'paragraph',
          content: [
            { type: 'text', text: '目标' },
            { type: 'text', text: '一', marks: [{ type: 'bold' }] },
          ],
        },
        {
          type: 'bulletList',
          content: [
            { type: 'listItem', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'A' }] }] },
            {
              type: 'listItem',
              content: [
                {
                  type: 'paragraph',
                  content: [{ type: 'text', text: 'B' }, { type: 'hardBreak' }, { type: 'text', text: 'C' }],
                },
              ],
            },
          ],
        },
      ],
    };
    expect(richToText(doc)).toBe('目标一\nA\nB\nC');
    expect(richToText('plain')).toBe('plain');
    expect(richToText(null)).toBe('');
  });

  it('tells empty values and equal values', () => {
    expect(isRichEmpty({ type: 'doc', content: [{ type: 'paragraph' }] })).toBe(true);
    expect(isRichEmpty('  ')).toBe(true);
    expect(isRichEmpty('x')).toBe(false);
    expect(
      sameRich('a', { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'a' }] }] }),
    ).toBe(true);
    expect(sameRich('a', 'b')).toBe(false);
  });
});
