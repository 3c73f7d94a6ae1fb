import { yXmlFragmentToProsemirrorJSON, prosemirrorJSONToYXmlFragment } from '@tiptap/y-tiptap';
import { getSchema } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { fragmentToRich, richToFragment } from '@sprout/contracts';

/**
 * The browser binds rich fields with Tiptap's Collaboration extension, i.e. @tiptap/y-tiptap
 * (y-prosemirror's Tiptap fork), while the server writes and reads fragments with its own
 * code checked against y-prosemirror: both must agree on the encoding.
 */
const schema = getSchema([StarterKit]);
const p = (...content: unknown[]) => ({ type: 'paragraph', ...(content.length ? { content } : {}) });
const text = (t: string, ...marks: string[]) => ({
  type: 'text',
  text: t,
  ...(marks.length ? { marks: marks.map((type) => ({ type })) } : {}),
});
const DOC = {
  type: 'doc',
  content: [
    p(text('认识'), text('秋天', 'bold'), text('的树叶', 'bold', 'italic')),
    { type: 'heading', attrs: { level: 3 }, content: [text('目标')] },
    { type: 'bulletList', content: [{ type: 'listItem', content: [p(text('捡树叶', 'underline'))] }] },
    { type: 'blockquote', content: [p(text('引用'), { type: 'hardBreak' }, text('第二行', 'strike'))] },
  ],
};

describe('rich fields: the server’s encoding is y-tiptap’s', () => {
  it('y-tiptap reads what the server writes', () => {
    const doc = new Y.Doc();
    const fragment = doc.getXmlFragment('weeklyGoals');
    richToFragment(DOC as never, fragment);
    const read = yXmlFragmentToProsemirrorJSON(fragment) as { content: unknown[] };
    expect(schema.nodeFromJSON(read).toJSON()).toEqual(schema.nodeFromJSON(DOC).toJSON());
  });

  it('the server reads what y-tiptap writes', () => {
    const doc = new Y.Doc();
    const fragment = doc.getXmlFragment('environment');
    prosemirrorJSONToYXmlFragment(schema, DOC, fragment);
    expect(schema.nodeFromJSON(fragmentToRich(fragment)).toJSON()).toEqual(schema.nodeFromJSON(DOC).toJSON());
  });
});
