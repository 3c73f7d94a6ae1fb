import { getSchema } from '@tiptap/core';
import StarterKit from '@tiptap/starter-kit';
import { describe, expect, it } from 'vitest';
import { prosemirrorJSONToYXmlFragment, yXmlFragmentToProsemirrorJSON } from 'y-prosemirror';
import * as Y from 'yjs';
import { fragmentToRich, type RichDoc, type RichNode, richToFragment } from './rich-text';

const schema = getSchema([StarterKit]);

const text = (t: string, ...marks: Array<string | { type: string; attrs: Record<string, unknown> }>) => ({
  type: 'text',
  text: t,
  ...(marks.length ? { marks: marks.map((m) => (typeof m === 'string' ? { type: m } : m)) } : {}),
});
const p = (...content: RichNode[]): RichNode => ({ type: 'paragraph', ...(content.length ? { content } : {}) });

/** Documents using every node and mark the week's rich fields allow (and a few more of StarterKit's). */
const DOCS: Record<string, RichDoc> = {
  'one paragraph': { type: 'doc', content: [p(text('认识秋天的树叶'))] },
  'marks, overlapping and adjacent': {
    type: 'doc',
    content: [
      p(
        text('plain '),
        text('bold', 'bold'),
        text(' bold-italic', 'bold', 'italic'),
        text(' under', 'underline'),
        text(' struck', 'strike'),
        text(' all four', 'bold', 'italic', 'underline', 'strike'),
      ),
    ],
  },
  'headings, lists, quote, breaks': {
    type: 'doc',
    content: [
      { type: 'heading', attrs: { level: 2 }, content: [text('目标')] },
      { type: 'heading', content: [text('default level')] },
      {
        type: 'bulletList',
        content: [
          { type: 'listItem', content: [p(text('一'))] },
          {
            type: 'listItem',
            content: [
              p(text('二')),
              { type: 'orderedList', attrs: { start: 3 }, content: [{ type: 'listItem', content: [p(text('2.3'))] }] },
            ],
          },
        ],
      },
      { type: 'orderedList', content: [{ type: 'listItem', content: [p(text('first', 'italic'))] }] },
      { type: 'blockquote', content: [p(text('引用')), p()] },
      p(text('line one'), { type: 'hardBreak' }, text('line two', 'bold'), { type: 'hardBreak' }),
      p(),
    ],
  },
  'code, rule and link': {
    type: 'doc',
    content: [
      { type: 'codeBlock', attrs: { language: 'js' }, content: [text('let a = 1')] },
      { type: 'horizontalRule' },
      p(text('see '), text('here', { type: 'link', attrs: { href: 'https://example.org' } }), text(' and ', 'code')),
    ],
  },
  emoji: { type: 'doc', content: [p(text('🌱 萌芽 🍂'))] },
};

/** Both fragments, each written into its own doc with the same client id (so encodings compare byte for byte). */
function writeBoth(json: RichDoc) {
  const ours = new Y.Doc();
  ours.clientID = 7;
  richToFragment(json, ours.getXmlFragment('f'));
  const theirs = new Y.Doc();
  theirs.clientID = 7;
  const f = theirs.getXmlFragment('f');
  theirs.transact(() => prosemirrorJSONToYXmlFragment(schema, json, f));
  return { ours, theirs };
}

describe('rich text ⇄ Y.XmlFragment in y-prosemirror’s encoding (Tiptap StarterKit schema)', () => {
  for (const [name, json] of Object.entries(DOCS)) {
    it(`writes exactly what y-prosemirror writes: ${name}`, () => {
      const { ours, theirs } = writeBoth(json);
      expect(Buffer.from(Y.encodeStateAsUpdate(ours)).toString('hex')).toBe(
        Buffer.from(Y.encodeStateAsUpdate(theirs)).toString('hex'),
      );
      expect(yXmlFragmentToProsemirrorJSON(ours.getXmlFragment('f'))).toEqual(
        yXmlFragmentToProsemirrorJSON(theirs.getXmlFragment('f')),
      );
    });

    it(`reads back the same document: ${name}`, () => {
      const { theirs } = writeBoth(json);
      const back = fragmentToRich(theirs.getXmlFragment('f'));
      expect(typeof back).toBe('object');
      // Same ProseMirror document once the schema fills in defaults.
      expect(schema.nodeFromJSON(back).eq(schema.nodeFromJSON(json))).toBe(true);
      // And a Tiptap editor binding the fragment would build it (the browser's side).
      expect(
        schema.nodeFromJSON(yXmlFragmentToProsemirrorJSON(theirs.getXmlFragment('f'))).eq(schema.nodeFromJSON(back)),
      ).toBe(true);
    });
  }

  it('turns plain text into paragraphs, one per line, and an empty text into nothing', () => {
    const doc = new Y.Doc();
    const f = doc.getXmlFragment('f');
    richToFragment('第一行\n\n第三行', f);
    expect(fragmentToRich(f)).toEqual({
      type: 'doc',
      content: [p(text('第一行')), p(), p(text('第三行'))],
    });
    expect(yXmlFragmentToProsemirrorJSON(f)).toEqual({
      type: 'doc',
      content: [p(text('第一行')), p(), p(text('第三行'))],
    });
    richToFragment('', f);
    expect(f.length).toBe(0);
    expect(fragmentToRich(f)).toBe('');
  });

  it('reads an editor’s empty document (one empty paragraph) as an empty field', () => {
    const doc = new Y.Doc();
    const f = doc.getXmlFragment('f');
    prosemirrorJSONToYXmlFragment(schema, { type: 'doc', content: [p()] }, f);
    expect(fragmentToRich(f)).toBe('');
  });

  it('normalises what the schema would refuse, so no browser deletes it', () => {
    const doc = new Y.Doc();
    const f = doc.getXmlFragment('f');
    richToFragment(
      {
        type: 'doc',
        content: [
          text('loose text'),
          { type: 'image', attrs: { src: 'x' } },
          { type: 'mystery', content: [text('inside')] },
          { type: 'bulletList', content: [p(text('not in an item'))] },
          { type: 'bulletList', content: [] },
          { type: 'listItem', content: [{ type: 'heading', content: [text('h')] }] },
          p(text('bad mark', 'glow', 'bold'), text('')),
        ],
      },
      f,
    );
    const json = yXmlFragmentToProsemirrorJSON(f);
    // Valid for the schema (check() throws on invalid content).
    expect(() => schema.nodeFromJSON(json).check()).not.toThrow();
    expect(fragmentToRich(f)).toEqual({
      type: 'doc',
      content: [
        p(text('loose text')),
        p(text('inside')),
        { type: 'bulletList', content: [{ type: 'listItem', content: [p(text('not in an item'))] }] },
        { type: 'heading', attrs: { level: 1 }, content: [text('h')] },
        p(text('bad mark', 'bold')),
      ],
    });
  });
});
