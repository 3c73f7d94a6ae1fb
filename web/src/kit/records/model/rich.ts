import type { RichDoc, RichNode, RichText } from '@sprout/contracts';

export function isRichDoc(value: unknown): value is RichDoc {
  return typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'doc';
}

/** An empty editor document. */
export function emptyDoc(): RichDoc {
  return { type: 'doc', content: [{ type: 'paragraph' }] };
}

/**
 * The editor document for a stored value: a document as it is, plain text (from the
 * server or older clients) as one paragraph per line.
 */
export function toDoc(value: RichText | null | undefined): RichDoc {
  if (isRichDoc(value)) return value.content && value.content.length > 0 ? value : emptyDoc();
  const text = typeof value === 'string' ? value.replace(/\r\n?/g, '\n') : '';
  if (text === '') return emptyDoc();
  return {
    type: 'doc',
    content: text
      .split('\n')
      .map(
        (line): RichNode =>
          line ? { type: 'paragraph', content: [{ type: 'text', text: line }] } : { type: 'paragraph' },
      ),
  };
}

const BLOCKS = new Set(['paragraph', 'heading', 'blockquote', 'codeBlock', 'listItem', 'horizontalRule']);

/** The plain text of a rich value: lines per block, as the server's `richToText` (search, diffs). */
export function richToText(value: RichText | null | undefined): string {
  if (!value) return '';
  if (typeof value === 'string') return value;
  if (!isRichDoc(value)) return '';
  const out: string[] = [];
  const walk = (node: unknown) => {
    if (!node || typeof node !== 'object') return;
    const n = node as RichNode;
    if (typeof n.text === 'string') out.push(n.text);
    if (n.type === 'hardBreak') out.push('\n');
    if (Array.isArray(n.content)) for (const c of n.content) walk(c);
    if (BLOCKS.has(n.type) && out.length > 0 && out[out.length - 1] !== '\n') out.push('\n');
  };
  for (const c of value.content ?? []) walk(c);
  return out.join('').replace(/\n+$/, '');
}

/** True when a rich value holds no text. */
export function isRichEmpty(value: RichText | null | undefined): boolean {
  return richToText(value).trim() === '';
}

/** Same content? (documents compared structurally; plain text against its paragraphs). */
export function sameRich(a: RichText | null | undefined, b: RichText | null | undefined): boolean {
  return JSON.stringify(toDoc(a)) === JSON.stringify(toDoc(b));
}
