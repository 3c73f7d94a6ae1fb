import { Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { isRichEmpty, toDoc } from '../../model/rich';
import type { RichNode, RichText } from '../../model/types';
import classes from './RichView.module.css';

function safeHref(href: unknown): string | undefined {
  return typeof href === 'string' && /^(https?:|mailto:)/i.test(href) ? href : undefined;
}

/** The marks drawn as an element around their text (a link is drawn only to a safe address). */
const MARK_TAGS = { bold: 'strong', italic: 'em', underline: 'u', strike: 's', code: 'code' } as const;

function renderText(node: RichNode, key: number): ReactNode {
  let out: ReactNode = node.text ?? '';
  for (const mark of node.marks ?? []) {
    const Tag = MARK_TAGS[mark.type as keyof typeof MARK_TAGS];
    if (Tag) {
      out = <Tag>{out}</Tag>;
    } else if (mark.type === 'link') {
      const href = safeHref(mark.attrs?.href);
      out = href ? (
        <a href={href} target="_blank" rel="noreferrer noopener">
          {out}
        </a>
      ) : (
        out
      );
    }
  }
  return <span key={key}>{out}</span>;
}

function renderNodes(nodes: RichNode[] | undefined): ReactNode[] {
  return (nodes ?? []).map((node, i) => renderNode(node, i));
}

function renderNode(node: RichNode, key: number): ReactNode {
  switch (node.type) {
    case 'text':
      return renderText(node, key);
    case 'hardBreak':
      return <br key={key} />;
    case 'paragraph':
      return <p key={key}>{node.content?.length ? renderNodes(node.content) : <br />}</p>;
    case 'heading':
      return <h4 key={key}>{renderNodes(node.content)}</h4>;
    case 'bulletList':
      return <ul key={key}>{renderNodes(node.content)}</ul>;
    case 'orderedList':
      return (
        <ol key={key} start={typeof node.attrs?.start === 'number' ? node.attrs.start : undefined}>
          {renderNodes(node.content)}
        </ol>
      );
    case 'listItem':
      return <li key={key}>{renderNodes(node.content)}</li>;
    case 'blockquote':
      return <blockquote key={key}>{renderNodes(node.content)}</blockquote>;
    case 'horizontalRule':
      return <hr key={key} />;
    default:
      return node.content ? <div key={key}>{renderNodes(node.content)}</div> : null;
  }
}

/**
 * A rich value shown read-only, as React elements (no HTML strings): Tiptap JSON or plain
 * text (one paragraph per line). Empty values show a dash.
 */
export function RichView({
  value,
  'data-testid': testId,
}: {
  value: RichText | null | undefined;
  'data-testid'?: string;
}) {
  const { t } = useTranslation();
  if (isRichEmpty(value)) {
    return (
      <Text c="dimmed" size="sm" data-testid={testId}>
        {t('week.none')}
      </Text>
    );
  }
  return (
    <div className={classes.root} data-testid={testId}>
      {renderNodes(toDoc(value).content)}
    </div>
  );
}
