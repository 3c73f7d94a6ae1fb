/**
 * Sanitising of rich text on write (issue 14; docs/SECURITY.md V5).
 *
 * A rich field holds a Tiptap (ProseMirror) JSON document or plain text, never an HTML
 * string: text is data, and every renderer (React in the web app, ProseMirror in the editor,
 * the Word export) encodes it. What could carry script is the document's structure, so that
 * is what is allowlisted here, node by node: the node and mark types the editor (Tiptap
 * StarterKit + Link) can produce, their attributes with checked values, and link targets
 * limited to http, https and mailto. Anything else is dropped; an unknown node keeps its
 * text (a teacher's words are never lost). Every write path of a rich field goes through
 * `sanitizeRich` (the records' `RichTextSchema`, templates, and the live co-editing
 * revisions, which are parsed with the same schema).
 *
 * `RICH_HTML_ALLOWLIST` is the same policy said as sanitize-html options: the HTML such a
 * document renders to. The tests (services/core/src/records/rich-sanitize.test.ts, beside the
 * XSS corpus) render sanitised documents to HTML and check that sanitize-html with this
 * allowlist finds nothing to remove. Pure, no dependency: the schemas parse through it.
 */

/** The sanitize-html options the allowlist uses (a subset of its `IOptions`, so this stays dependency-free). */
export interface HtmlAllowlist {
  allowedTags: string[];
  allowedAttributes: Record<string, string[]>;
  allowedSchemes: string[];
  allowedSchemesByTag: Record<string, string[]>;
  allowedSchemesAppliedToAttributes: string[];
  allowProtocolRelative: boolean;
  disallowedTagsMode: 'discard';
}

/** The HTML the editor can produce (for sanitize-html; see the tests). */
export const RICH_HTML_ALLOWLIST: HtmlAllowlist = {
  allowedTags: [
    'p',
    'br',
    'strong',
    'em',
    'u',
    's',
    'ul',
    'ol',
    'li',
    'h1',
    'h2',
    'h3',
    'h4',
    'blockquote',
    'code',
    'pre',
    'hr',
    'a',
  ],
  allowedAttributes: { a: ['href', 'rel', 'target', 'title'], ol: ['start', 'type'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: {},
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
};

/**
 * The link target to keep, or null: one that starts with `http:`, `https:` or `mailto:` (any
 * letter case). Nothing may come before the scheme, so no leading blank or control
 * character, entity or tab inside it can make a browser read another scheme (it strips
 * those before reading one); relative targets are dropped too.
 */
export function safeLinkHref(href: unknown): string | null {
  if (typeof href !== 'string' || href.length > 2048) return null;
  return /^(?:https?|mailto):/i.test(href) ? href : null;
}

type Attrs = Record<string, unknown>;
/** One attribute's check: the value to keep, or `undefined` to drop the attribute. */
type AttrRule = (value: unknown) => unknown;

const nullOr =
  (ok: (v: unknown) => boolean): AttrRule =>
  (v) =>
    v === null || ok(v) ? v : undefined;
const oneOf = (...values: string[]) => nullOr((v) => typeof v === 'string' && values.includes(v));
const textAlign = oneOf('left', 'center', 'right', 'justify');
const intIn = (min: number, max: number) => (v: unknown) =>
  Number.isInteger(v) && (v as number) >= min && (v as number) <= max;

/** The block nodes the editor can produce, and the attributes each may carry. */
const NODES: Readonly<Record<string, Readonly<Record<string, AttrRule>>>> = {
  paragraph: { textAlign },
  heading: { level: (v) => (intIn(1, 4)(v) ? v : 3), textAlign },
  blockquote: {},
  bulletList: {},
  orderedList: { start: (v) => (intIn(0, 32767)(v) ? v : 1), type: oneOf('1', 'a', 'A', 'i', 'I') },
  listItem: {},
  codeBlock: { language: nullOr((v) => typeof v === 'string' && /^[\w+#.-]{1,32}$/.test(v)) },
  hardBreak: {},
  horizontalRule: {},
};
/** Nodes whose children are inline (text and hard breaks). */
const INLINE_CONTAINERS = new Set(['paragraph', 'heading', 'codeBlock']);
const LEAVES = new Set(['hardBreak', 'horizontalRule']);

/** The marks the editor can produce, and their attributes. A link without a safe target is dropped. */
const MARKS: Readonly<Record<string, Readonly<Record<string, AttrRule>>>> = {
  bold: {},
  italic: {},
  underline: {},
  strike: {},
  code: {},
  link: {
    href: safeLinkHref,
    target: oneOf('_blank'),
    rel: nullOr((v) => typeof v === 'string' && /^[a-z ]{0,64}$/.test(v)),
    class: nullOr(() => false), // the editor writes `class: null`; a class could restyle the page
    title: nullOr((v) => typeof v === 'string' && v.length <= 500),
  },
};

/** Beyond this depth a node keeps only its text (bounded work and stack on hostile input). */
const MAX_DEPTH = 64;

const isObject = (v: unknown): v is Attrs => typeof v === 'object' && v !== null && !Array.isArray(v);
const childrenOf = (n: Attrs): unknown[] => (Array.isArray(n.content) ? n.content : []);

/** The text under a node, without recursion. */
function flatText(root: unknown): string {
  const out: string[] = [];
  const stack: unknown[] = [root];
  while (stack.length) {
    const n = stack.pop();
    if (!isObject(n)) continue;
    if (typeof n.text === 'string') out.push(n.text);
    else if (n.type === 'hardBreak') out.push('\n');
    const kids = childrenOf(n);
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]);
  }
  return out.join('');
}

/** The allowed attributes of `given` that pass their rule (absent ones stay absent). */
function attrsOf(rules: Readonly<Record<string, AttrRule>>, given: unknown): Attrs | undefined {
  if (!isObject(given)) return undefined;
  const out: Attrs = {};
  for (const [key, rule] of Object.entries(rules)) {
    if (!(key in given)) continue;
    const value = rule(given[key]);
    if (value !== undefined) out[key] = value;
  }
  return Object.keys(out).length ? out : undefined;
}

function marksOf(given: unknown): Attrs[] | undefined {
  if (!Array.isArray(given)) return undefined;
  const out: Attrs[] = [];
  const seen = new Set<string>();
  for (const m of given) {
    if (!isObject(m) || typeof m.type !== 'string' || !Object.hasOwn(MARKS, m.type) || seen.has(m.type)) continue;
    const rules = MARKS[m.type] as Readonly<Record<string, AttrRule>>;
    const attrs = attrsOf(rules, m.attrs);
    if (m.type === 'link' && !attrs?.href) continue; // no safe target: the text stays, unlinked
    seen.add(m.type);
    out.push(attrs ? { type: m.type, attrs } : { type: m.type });
  }
  return out.length ? out : undefined;
}

const textNode = (text: string, marks?: Attrs[]): Attrs =>
  marks ? { type: 'text', text, marks } : { type: 'text', text };

/** Inline children: text with allowed marks and hard breaks; anything else becomes its text. */
function inline(content: unknown[]): Attrs[] {
  const out: Attrs[] = [];
  for (const raw of content) {
    if (!isObject(raw)) continue;
    if (raw.type === 'hardBreak') {
      out.push({ type: 'hardBreak' });
      continue;
    }
    if (raw.type === 'text') {
      if (typeof raw.text === 'string' && raw.text) out.push(textNode(raw.text, marksOf(raw.marks)));
      continue;
    }
    const text = flatText(raw);
    if (text) out.push(textNode(text));
  }
  return out;
}

/** Block children (of the document, a quote, a list or a list item). */
function blocks(content: unknown[], depth: number): Attrs[] {
  const out: Attrs[] = [];
  for (const raw of content) {
    if (!isObject(raw)) continue;
    const type = typeof raw.type === 'string' ? raw.type : '';
    if (type === 'text' || type === 'hardBreak') {
      out.push(...inline([raw])); // misplaced inline content: kept as it is, checked the same way
      continue;
    }
    const rules = Object.hasOwn(NODES, type) ? NODES[type] : undefined;
    if (!rules || depth >= MAX_DEPTH) {
      // Unknown (or absurdly deep): block children are kept as blocks, otherwise the node's text.
      const kids = childrenOf(raw);
      const hasBlocks = kids.some((k) => isObject(k) && k.type !== 'text' && k.type !== 'hardBreak');
      if (rules === undefined && hasBlocks && depth < MAX_DEPTH) out.push(...blocks(kids, depth + 1));
      else {
        const text = flatText(raw);
        if (text) out.push({ type: 'paragraph', content: [textNode(text)] });
      }
      continue;
    }
    const node: Attrs = { type };
    const attrs = attrsOf(rules, raw.attrs);
    if (attrs) node.attrs = attrs;
    if (!LEAVES.has(type) && Array.isArray(raw.content)) {
      node.content = INLINE_CONTAINERS.has(type) ? inline(raw.content) : blocks(raw.content, depth + 1);
    }
    out.push(node);
  }
  return out;
}

/** A rich-text document reduced to what the editor can produce (see the module comment). */
export function sanitizeRichDoc(doc: { type: 'doc'; content?: unknown[] }): { type: 'doc'; content?: unknown[] } {
  return Array.isArray(doc.content) ? { type: 'doc', content: blocks(doc.content, 1) } : { type: 'doc' };
}

/** A rich field's value, sanitised: plain text is kept as text, a document by the allowlist. */
export function sanitizeRich<T extends string | { type: 'doc'; content?: unknown[] }>(value: T): T {
  return (typeof value === 'string' ? value : sanitizeRichDoc(value)) as T;
}
