import type { ReactNode } from 'react';
import { type RichNode, richDocOf } from './richText';

const MARK_TAGS = { bold: 'strong', italic: 'em', underline: 'u', strike: 's', code: 'code' } as const;
const safeHref = (href: unknown) => (typeof href === 'string' && /^(https?:|mailto:)/i.test(href) ? href : undefined);

function text(node: RichNode, key: number): ReactNode {
  let out: ReactNode = node.text ?? '';
  for (const mark of node.marks ?? []) {
    const Tag = MARK_TAGS[mark.type as keyof typeof MARK_TAGS];
    if (Tag) out = <Tag>{out}</Tag>;
    else if (mark.type === 'link') {
      const href = safeHref(mark.attrs?.href);
      if (href)
        out = (
          <a href={href} target="_blank" rel="noreferrer noopener">
            {out}
          </a>
        );
    }
  }
  return <span key={key}>{out}</span>;
}

const nodes = (list: RichNode[] | undefined): ReactNode[] => (list ?? []).map((n, i) => node(n, i));

function node(n: RichNode, key: number): ReactNode {
  switch (n.type) {
    case 'text':
      return text(n, key);
    case 'hardBreak':
      return <br key={key} />;
    case 'paragraph':
      return <p key={key}>{n.content?.length ? nodes(n.content) : <br />}</p>;
    case 'heading':
      return <h4 key={key}>{nodes(n.content)}</h4>;
    case 'bulletList':
      return <ul key={key}>{nodes(n.content)}</ul>;
    case 'orderedList':
      return <ol key={key}>{nodes(n.content)}</ol>;
    case 'listItem':
      return <li key={key}>{nodes(n.content)}</li>;
    case 'blockquote':
      return <blockquote key={key}>{nodes(n.content)}</blockquote>;
    default:
      return n.content ? <div key={key}>{nodes(n.content)}</div> : null;
  }
}

/** A rich-text value (a Tiptap document's JSON text, or plain text) shown read-only as React elements, never as HTML. */
export function RichTextView({ value, 'data-testid': testId }: { value: string; 'data-testid'?: string }) {
  return <div data-testid={testId}>{nodes(richDocOf(value).content)}</div>;
}
