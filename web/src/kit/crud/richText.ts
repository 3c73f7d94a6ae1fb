/** A node of a Tiptap (ProseMirror) JSON document, as a rich-text value carries it. */
export interface RichNode {
  type: string;
  text?: string;
  attrs?: Record<string, unknown>;
  marks?: { type: string; attrs?: Record<string, unknown> }[];
  content?: RichNode[];
}

/**
 * A rich-text value as a document: the JSON text of one (`{"type":"doc",…}`), or plain text,
 * one paragraph a line; empty → an empty document.
 */
export function richDocOf(value: string | null | undefined): RichNode {
  const s = (value ?? '').trim();
  if (s.startsWith('{')) {
    try {
      const doc = JSON.parse(s) as RichNode;
      if (doc && doc.type === 'doc') return doc;
    } catch {
      /* plain text after all */
    }
  }
  if (!s) return { type: 'doc', content: [] };
  return {
    type: 'doc',
    content: (value ?? '')
      .split('\n')
      .map((line) => ({ type: 'paragraph', content: line ? [{ type: 'text', text: line }] : [] })),
  };
}

/** The words of a rich-text value, without structure (a list's one-line preview). */
export function richPlainText(value: string | null | undefined): string {
  const out: string[] = [];
  const walk = (n: RichNode) => {
    if (n.text) out.push(n.text);
    for (const c of n.content ?? []) walk(c);
    if (n.type === 'paragraph' || n.type === 'heading' || n.type === 'listItem') out.push(' ');
  };
  walk(richDocOf(value));
  return out.join('').replace(/\s+/g, ' ').trim();
}
