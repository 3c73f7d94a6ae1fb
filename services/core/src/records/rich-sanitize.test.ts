import fc from 'fast-check';
import sanitizeHtml from 'sanitize-html';
import { describe, expect, it } from 'vitest';
import {
  RICH_HTML_ALLOWLIST,
  richToText,
  safeLinkHref,
  sanitizeRich,
  sanitizeRichDoc,
  WeekPlanContentSchema,
} from '@sprout/contracts';
import { SAFE_HREFS, XSS_HREFS, XSS_STRINGS, xssDoc } from '../testing/xss';

type Node = { type: string; attrs?: Record<string, unknown>; content?: Node[]; text?: string; marks?: Node[] };

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const attr = (s: unknown) => esc(String(s)).replace(/"/g, '&quot;');
const attrList = (attrs: Record<string, unknown> | undefined, keys: string[]) =>
  keys
    .filter((k) => attrs?.[k] !== undefined && attrs?.[k] !== null)
    .map((k) => ` ${k}="${attr(attrs?.[k])}"`)
    .join('');

/** A node's attributes other than those its tag stands for (textAlign is a style, level the tag's name…). */
const other = (node: Node, mapped: string[]) =>
  attrList(
    node.attrs,
    Object.keys(node.attrs ?? {}).filter((k) => !mapped.includes(k)),
  );

/**
 * The HTML a document renders to in Tiptap (StarterKit + Link): every node and mark, and
 * every attribute, written out as the editor's renderHTML would, so nothing the sanitiser
 * let through is hidden from sanitize-html. An unknown node renders as `<x-type>`.
 */
function toHtml(node: Node): string {
  const inner = (node.content ?? []).map(toHtml).join('');
  switch (node.type) {
    case 'doc':
      return inner;
    case 'text': {
      let out = esc(node.text ?? '');
      for (const m of node.marks ?? []) {
        const tag = { bold: 'strong', italic: 'em', underline: 'u', strike: 's', code: 'code', link: 'a' }[m.type];
        const name = tag ?? `x-${m.type}`;
        const keys = tag === 'a' ? ['href', 'target', 'rel', 'class', 'title'] : Object.keys(m.attrs ?? {});
        out = `<${name}${attrList(m.attrs, keys)}>${out}</${name}>`;
      }
      return out;
    }
    case 'paragraph':
      return `<p${other(node, ['textAlign'])}>${inner}</p>`;
    case 'heading':
      return `<h${node.attrs?.level ?? 3}${other(node, ['level', 'textAlign'])}>${inner}</h${node.attrs?.level ?? 3}>`;
    case 'blockquote':
      return `<blockquote${other(node, [])}>${inner}</blockquote>`;
    case 'bulletList':
      return `<ul${other(node, [])}>${inner}</ul>`;
    case 'orderedList':
      return `<ol${attrList(node.attrs, Object.keys(node.attrs ?? {}))}>${inner}</ol>`;
    case 'listItem':
      return `<li${other(node, [])}>${inner}</li>`;
    case 'codeBlock':
      return `<pre${other(node, ['language'])}><code>${inner}</code></pre>`;
    case 'hardBreak':
      return `<br${other(node, [])} />`;
    case 'horizontalRule':
      return `<hr${other(node, [])} />`;
    default:
      return `<x-${node.type}${attrList(node.attrs, Object.keys(node.attrs ?? {}))}>${inner}</x-${node.type}>`;
  }
}

/**
 * A document's HTML through sanitize-html twice: allowing everything (`html`, so both go
 * through the same HTML parser and its nesting rules) and with the editor's allowlist
 * (`clean`). Equal when the allowlist finds nothing to remove.
 */
const leftover = (doc: Node) => {
  const raw = toHtml(doc);
  const html = sanitizeHtml(raw, {
    allowedTags: false,
    allowedAttributes: false,
    allowedSchemesAppliedToAttributes: [],
    allowVulnerableTags: true,
  });
  return { html, clean: sanitizeHtml(raw, RICH_HTML_ALLOWLIST) };
};

/** Every link target in a document. */
function hrefs(node: unknown): string[] {
  const out: string[] = [];
  const walk = (n: unknown) => {
    if (!n || typeof n !== 'object') return;
    const o = n as Node;
    for (const m of o.marks ?? []) if (m.type === 'link') out.push(String(m.attrs?.href));
    for (const c of o.content ?? []) walk(c);
  };
  walk(node);
  return out;
}

describe('rich text sanitising', () => {
  it('drops every payload structure from a document and keeps what the teacher wrote', () => {
    const doc = sanitizeRichDoc(xssDoc()) as Node;
    const { html, clean } = leftover(doc);
    expect(html).toBe(clean);
    const json = JSON.stringify(doc);
    for (const bad of ['onerror', 'onclick', 'onmouseover', 'onload', 'style', 'image', 'iframe', 'svg', 'textStyle'])
      expect(json).not.toContain(`"${bad}"`);
    expect(json).not.toContain('mantine-Modal-root');
    expect(json).not.toContain('polluted');
    expect(hrefs(doc)).toEqual(SAFE_HREFS);
    const text = richToText(doc as never);
    for (const keep of [
      'keep: plain words',
      'keep: good link 0',
      'keep: styled',
      'keep: iframe text',
      'keep: heading',
      'keep: item',
      'keep: quoted',
      'keep: code',
      'keep: proto',
    ])
      expect(text).toContain(keep);
    // Markup typed as text stays text (every renderer encodes it); the bad links keep their words.
    for (const s of XSS_STRINGS) expect(text).toContain(s);
    expect(text).toContain('bad link 0');
    // Checked attribute values: a heading level and a list start are numbers again.
    const heading = (doc.content ?? []).find((n) => n.type === 'heading');
    expect(heading?.attrs).toEqual({ level: 3 });
    const list = (doc.content ?? []).find((n) => n.type === 'orderedList');
    expect(list?.attrs).toEqual({ start: 1 });
    expect(list?.content?.[0]).toEqual({
      type: 'listItem',
      content: [{ type: 'paragraph', content: [{ type: 'text', text: 'keep: item' }] }],
    });
  });

  it('ignores prototype keys (a request body never gets them this far; a stored document might)', () => {
    const doc = JSON.parse(
      '{"type":"doc","content":[{"type":"__proto__","content":[{"type":"text","text":"a"}]},' +
        '{"type":"paragraph","__proto__":{"polluted":1},"attrs":{"__proto__":{"x":1}},' +
        '"content":[{"type":"text","text":"b","marks":[{"type":"__proto__"},{"type":"constructor"}]}]}]}',
    );
    expect(sanitizeRichDoc(doc)).toEqual({
      type: 'doc',
      content: [
        { type: 'paragraph', content: [{ type: 'text', text: 'a' }] },
        { type: 'paragraph', content: [{ type: 'text', text: 'b' }] },
      ],
    });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('keeps only http, https and mailto links, with nothing before the scheme', () => {
    for (const href of XSS_HREFS) expect(safeLinkHref(href), JSON.stringify(href)).toBeNull();
    for (const href of SAFE_HREFS) expect(safeLinkHref(href)).toBe(href);
    expect(safeLinkHref('HTTPS://example.org')).toBe('HTTPS://example.org');
    // Each of these is an http(s) link to a browser too, but not as written: dropped, never misread.
    for (const href of [' https://example.org', 'ht\ttps://example.org', '\u0000https://example.org'])
      expect(safeLinkHref(href)).toBeNull();
    expect(safeLinkHref(42)).toBeNull();
    expect(safeLinkHref(`https://example.org/${'a'.repeat(3000)}`)).toBeNull();
  });

  it('leaves what the editor writes exactly as it is', () => {
    const fromEditor = {
      type: 'doc',
      content: [
        { type: 'heading', attrs: { level: 3 }, content: [{ type: 'text', text: '目标' }] },
        {
          type: 'paragraph',
          content: [
            { type: 'text', marks: [{ type: 'bold' }, { type: 'italic' }], text: '观察' },
            { type: 'hardBreak' },
            {
              type: 'text',
              marks: [
                {
                  type: 'link',
                  attrs: {
                    href: 'https://example.org',
                    target: '_blank',
                    rel: 'noopener noreferrer nofollow',
                    class: null,
                  },
                },
              ],
              text: '链接',
            },
          ],
        },
        {
          type: 'orderedList',
          attrs: { start: 1, type: null },
          content: [{ type: 'listItem', content: [{ type: 'paragraph' }] }],
        },
        {
          type: 'bulletList',
          content: [
            { type: 'listItem', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'a < b & c > d' }] }] },
          ],
        },
        { type: 'blockquote', content: [{ type: 'paragraph' }] },
      ],
    };
    // Tiptap writes marks and text in its own key order; the sanitiser's output is compared as values.
    expect(sanitizeRichDoc(fromEditor as never)).toEqual(fromEditor);
    expect(sanitizeRich('plain <b>text</b>\nsecond line')).toBe('plain <b>text</b>\nsecond line');
  });

  it('is applied by the content schemas (every write path parses with them)', () => {
    const plan = WeekPlanContentSchema.parse({
      title: '搭高楼',
      domain: 1,
      activityType: 1,
      goals: xssDoc(),
      process: { type: 'doc', content: [{ type: 'image', attrs: { src: 'x', onerror: 'window.__xss=1' } }] },
    });
    expect(JSON.stringify(plan.goals)).not.toContain('"onerror"');
    expect(hrefs(plan.goals)).toEqual(SAFE_HREFS);
    expect(plan.process).toEqual({ type: 'doc', content: [] });
  });

  it('bounds its work on hostile nesting', () => {
    let deep: Node = { type: 'text', text: 'bottom' };
    for (let i = 0; i < 5000; i++) deep = { type: i % 2 ? 'blockquote' : 'unknownBlock', content: [deep] };
    const doc = sanitizeRichDoc({ type: 'doc', content: [deep] }) as Node;
    expect(richToText(doc as never)).toBe('bottom');
    expect(leftover(doc).html).toBe(leftover(doc).clean);
  });

  it('never lets through what sanitize-html would remove, for any document (property)', () => {
    const payload = fc.oneof(
      fc.constantFrom(...XSS_STRINGS, ...XSS_HREFS, ...SAFE_HREFS),
      fc.string({ maxLength: 12 }),
    );
    const value = fc.oneof(payload, fc.integer({ min: -2, max: 8 }), fc.constant(null), fc.boolean());
    const types = [
      'paragraph',
      'heading',
      'blockquote',
      'bulletList',
      'orderedList',
      'listItem',
      'codeBlock',
      'hardBreak',
      'horizontalRule',
      'text',
      'image',
      'iframe',
      'script',
      'constructor',
      '__proto__',
    ];
    const attrKeys = [
      'level',
      'start',
      'type',
      'language',
      'textAlign',
      'href',
      'onclick',
      'style',
      'class',
      'src',
      'target',
      'rel',
      'title',
    ];
    const attrs = fc.dictionary(fc.constantFrom(...attrKeys), value, { maxKeys: 4 });
    const href = fc.oneof(fc.constantFrom(...XSS_HREFS, ...SAFE_HREFS), fc.string({ maxLength: 12 }));
    const mark = fc.oneof(
      fc.record({ type: fc.constant('link'), attrs: fc.record({ href, target: value, rel: value, class: value }) }),
      fc.record({ type: fc.constantFrom('bold', 'italic', 'underline', 'strike', 'code', 'link', 'textStyle'), attrs }),
    );
    const { node } = fc.letrec<{ node: unknown }>((tie) => ({
      node: fc.record(
        {
          type: fc.oneof(fc.constantFrom(...types), fc.constant('text'), fc.constant('paragraph')),
          attrs,
          text: payload,
          marks: fc.array(mark, { maxLength: 3 }),
          content: fc.array(tie('node'), { maxLength: 3 }),
        },
        { requiredKeys: ['type'] },
      ),
    }));
    fc.assert(
      fc.property(fc.array(node, { maxLength: 4 }), (content) => {
        const once = sanitizeRichDoc({ type: 'doc', content }) as Node;
        const { html, clean } = leftover(once);
        expect(html).toBe(clean);
        expect(sanitizeRichDoc(once as never)).toEqual(once); // idempotent
        for (const href of hrefs(once)) expect(SAFE_HREFS).toContain(href);
      }),
      { seed: 14, numRuns: 500 },
    );
  });
});
