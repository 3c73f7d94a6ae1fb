import * as Y from 'yjs';

/**
 * Rich text (a ProseMirror / Tiptap JSON document, or plain text) ⇄ a `Y.XmlFragment`, in
 * exactly the encoding y-prosemirror (Tiptap's Collaboration extension) writes and reads:
 * one `Y.XmlElement` per node named after its type, its non-null attributes (schema
 * defaults filled in, in schema order), and each run of text nodes as one `Y.XmlText` whose
 * delta carries the marks as formatting attributes (`{bold: {}}`, `{link: {href, …}}`).
 * Checked against y-prosemirror with Tiptap's StarterKit schema in rich-text.test.ts.
 *
 * Depends on yjs only: the server, the API and the browser all import it.
 */

/** A Tiptap JSON document: what the editor's `getJSON()` gives and a rich field of a record stores. */
export interface RichDoc {
  type: 'doc';
  content?: RichNode[];
}
/** What a rich field of a record holds: a Tiptap document, or plain text (older clients; lines become paragraphs). */
export type RichText = string | RichDoc;

/** A Tiptap / ProseMirror node. */
export interface RichNode {
  type: string;
  attrs?: Record<string, unknown>;
  content?: RichNode[];
  text?: string;
  marks?: RichMark[];
}
export interface RichMark {
  type: string;
  attrs?: Record<string, unknown>;
}

/** StarterKit's nodes (Tiptap 3) and their attributes' defaults, in schema order. */
const NODE_ATTRS: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {
  paragraph: {},
  blockquote: {},
  bulletList: {},
  codeBlock: { language: null },
  hardBreak: {},
  heading: { level: 1 },
  horizontalRule: {},
  listItem: {},
  orderedList: { start: 1, type: null },
};
/** StarterKit's marks and their attributes' defaults (none of them overlaps itself). */
const MARK_ATTRS: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {
  link: { href: null, target: '_blank', rel: 'noopener noreferrer nofollow', class: null, title: null },
  bold: {},
  code: {},
  italic: {},
  strike: {},
  underline: {},
};
const MARK_ORDER = Object.keys(MARK_ATTRS);
/** Blocks whose content is inline (text and hard breaks). */
const TEXTBLOCKS = new Set(['paragraph', 'heading', 'codeBlock']);
const LEAVES = new Set(['hardBreak', 'horizontalRule']);
const LISTS = new Set(['bulletList', 'orderedList']);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Attributes as ProseMirror computes them: the given value, else the default. */
function attrsOf(defaults: Readonly<Record<string, unknown>>, given: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const g = isObject(given) ? given : {};
  for (const key of Object.keys(defaults)) out[key] = g[key] !== undefined ? g[key] : defaults[key];
  return out;
}

/** The plain text inside any JSON node (for nodes the schema does not know). */
function plainText(node: unknown): string {
  if (!isObject(node)) return '';
  if (typeof node.text === 'string') return node.text;
  if (node.type === 'hardBreak') return '\n';
  return Array.isArray(node.content) ? node.content.map(plainText).join('') : '';
}

/**
 * Normalises JSON into nodes the StarterKit schema accepts, so that no browser's
 * y-prosemirror meets a node it cannot build (it would delete it from the shared document):
 * unknown nodes become paragraphs of their text, unknown marks are dropped, inline content
 * directly in a block container is wrapped in a paragraph, list children in list items.
 */
function normaliseBlocks(content: unknown[], container: 'doc' | 'blockquote' | 'listItem' | 'list'): RichNode[] {
  const out: RichNode[] = [];
  let inline: unknown[] = [];
  const flushInline = () => {
    if (!inline.length) return;
    const p: RichNode = { type: 'paragraph', content: normaliseInline(inline) };
    inline = [];
    out.push(container === 'list' ? { type: 'listItem', content: [p] } : p);
  };
  for (const raw of content) {
    if (!isObject(raw)) continue;
    const type = typeof raw.type === 'string' ? raw.type : '';
    if (type === 'text' || type === 'hardBreak') {
      inline.push(raw);
      continue;
    }
    flushInline();
    let node: RichNode;
    if (TEXTBLOCKS.has(type)) {
      node = { type, attrs: attrsOf(NODE_ATTRS[type] ?? {}, raw.attrs) };
      const inner = normaliseInline(Array.isArray(raw.content) ? raw.content : []);
      if (inner.length) node.content = inner;
    } else if (type === 'horizontalRule') {
      node = { type, attrs: {} };
    } else if (type === 'listItem' && container !== 'list') {
      out.push(...normaliseBlocks(Array.isArray(raw.content) ? raw.content : [], container)); // a stray item: its blocks
      continue;
    } else if (type === 'blockquote' || type === 'listItem' || LISTS.has(type)) {
      const kind = LISTS.has(type) ? 'list' : (type as 'blockquote' | 'listItem');
      let inner = normaliseBlocks(Array.isArray(raw.content) ? raw.content : [], kind);
      if (type === 'listItem' && inner[0]?.type !== 'paragraph') inner = [{ type: 'paragraph', attrs: {} }, ...inner];
      if (type !== 'listItem' && !inner.length) continue; // `block+` / `listItem+`: an empty one cannot exist
      node = { type, attrs: attrsOf(NODE_ATTRS[type] ?? {}, raw.attrs), content: inner };
    } else {
      const text = plainText(raw);
      if (!text) continue;
      node = { type: 'paragraph', attrs: {}, content: normaliseInline([{ type: 'text', text }]) };
    }
    out.push(container === 'list' && node.type !== 'listItem' ? { type: 'listItem', content: [node] } : node);
  }
  flushInline();
  return out;
}

function normaliseInline(content: unknown[]): RichNode[] {
  const out: RichNode[] = [];
  for (const raw of content) {
    if (!isObject(raw)) continue;
    if (raw.type === 'hardBreak') {
      out.push({ type: 'hardBreak', attrs: {} });
      continue;
    }
    const text = raw.type === 'text' && typeof raw.text === 'string' ? raw.text : plainText(raw);
    if (!text) continue; // ProseMirror allows no empty text nodes
    const node: RichNode = { type: 'text', text };
    const marks: RichMark[] = [];
    const seen = new Set<string>();
    for (const m of Array.isArray(raw.marks) ? raw.marks : []) {
      if (!isObject(m) || typeof m.type !== 'string' || !(m.type in MARK_ATTRS) || seen.has(m.type)) continue;
      seen.add(m.type);
      marks.push({ type: m.type, attrs: attrsOf(MARK_ATTRS[m.type] ?? {}, m.attrs) });
    }
    // ProseMirror keeps a node's marks in schema order.
    marks.sort((a, b) => MARK_ORDER.indexOf(a.type) - MARK_ORDER.indexOf(b.type));
    if (marks.length) node.marks = marks;
    out.push(node);
  }
  return out;
}

/** Plain text → paragraphs, one per line (an empty text → no content). */
function textToBlocks(text: string): RichNode[] {
  if (!text) return [];
  return text.split(/\r?\n/).map((line) => {
    const p: RichNode = { type: 'paragraph', attrs: {} };
    if (line) p.content = [{ type: 'text', text: line }];
    return p;
  });
}

/** The blocks of a rich value, normalised to the StarterKit schema. */
export function richToNodes(value: RichText | null | undefined): RichNode[] {
  if (value == null) return [];
  if (typeof value === 'string') return textToBlocks(value);
  return normaliseBlocks(Array.isArray(value.content) ? value.content : [], 'doc');
}

/** One run of text nodes → one Y.XmlText (y-prosemirror's createTypeFromTextNodes). */
function textType(nodes: RichNode[]): Y.XmlText {
  const type = new Y.XmlText();
  type.applyDelta(
    nodes.map((n) => {
      const attributes: Record<string, unknown> = {};
      for (const m of n.marks ?? []) attributes[m.type] = m.attrs ?? {};
      return { insert: n.text ?? '', attributes };
    }),
  );
  return type;
}

/** The children of a node as Y types: element nodes one each, each run of text nodes one XmlText. */
function childTypes(nodes: RichNode[]): Array<Y.XmlElement | Y.XmlText> {
  const out: Array<Y.XmlElement | Y.XmlText> = [];
  for (let i = 0; i < nodes.length; i++) {
    if (nodes[i]?.type === 'text') {
      const run: RichNode[] = [];
      while (i < nodes.length && nodes[i]?.type === 'text') run.push(nodes[i++] as RichNode);
      i--;
      out.push(textType(run));
    } else {
      out.push(elementType(nodes[i] as RichNode));
    }
  }
  return out;
}

/** y-prosemirror's createTypeFromElementNode: non-null attributes, then the children. */
function elementType(node: RichNode): Y.XmlElement {
  const type = new Y.XmlElement(node.type);
  for (const [key, value] of Object.entries(node.attrs ?? {})) {
    if (value !== null && value !== undefined) type.setAttribute(key, value as string);
  }
  type.insert(0, LEAVES.has(node.type) ? [] : childTypes(node.content ?? []));
  return type;
}

/**
 * Replaces the fragment's content with the rich value (in the caller's transaction, or its
 * own). The fragment must belong to a Y.Doc.
 */
export function richToFragment(value: RichText | null | undefined, fragment: Y.XmlFragment): void {
  const write = () => {
    if (fragment.length) fragment.delete(0, fragment.length);
    const children = childTypes(richToNodes(value));
    if (children.length) fragment.insert(0, children);
  };
  if (fragment.doc) fragment.doc.transact(write);
  else write();
}

function marksOf(attributes: Record<string, unknown> | undefined): RichMark[] | undefined {
  if (!attributes) return undefined;
  const marks: RichMark[] = [];
  for (const [key, value] of Object.entries(attributes)) {
    // y-prosemirror names overlapping marks `<name>--<hash>`.
    const type = key.replace(/--[a-zA-Z0-9+/=]{8}$/, '');
    const mark: RichMark = { type };
    if (isObject(value) && Object.keys(value).length) mark.attrs = { ...value };
    marks.push(mark);
  }
  return marks.length ? marks : undefined;
}

function nodeOf(type: Y.XmlElement | Y.XmlText | Y.XmlHook): RichNode[] {
  if (type instanceof Y.XmlText) {
    const out: RichNode[] = [];
    for (const d of type.toDelta() as Array<{ insert: unknown; attributes?: Record<string, unknown> }>) {
      if (typeof d.insert !== 'string' || !d.insert) continue;
      const node: RichNode = { type: 'text', text: d.insert };
      const marks = marksOf(d.attributes);
      if (marks) node.marks = marks;
      out.push(node);
    }
    return out;
  }
  if (!(type instanceof Y.XmlElement)) return [];
  const node: RichNode = { type: type.nodeName };
  const attrs = type.getAttributes() as Record<string, unknown>;
  if (Object.keys(attrs).length) node.attrs = attrs;
  const content = type.toArray().flatMap((c) => nodeOf(c as Y.XmlElement | Y.XmlText));
  if (content.length) node.content = content;
  return [node];
}

/**
 * The fragment as a Tiptap JSON document (what `editor.getJSON()` gives: attributes only
 * where a node has them), or `''` when it holds nothing but (at most) one empty paragraph —
 * the same thing an empty field holds.
 */
export function fragmentToRich(fragment: Y.XmlFragment): RichText {
  const content = fragment.toArray().flatMap((c) => nodeOf(c as Y.XmlElement | Y.XmlText));
  if (!content.length) return '';
  if (content.length === 1 && content[0]?.type === 'paragraph' && !content[0].content) return '';
  return { type: 'doc', content };
}
