import { LIVE_RECORD_DOCS, type LiveRecordKind } from './live-kinds';

/**
 * Document names bind a live document to a record: `<kind>:<record id>`, the kind the week's
 * or a co-edited family's (`LIVE_RECORD_DOCS`, record-doc.ts). Other kinds are refused. The
 * browser builds the name it connects to with `docNameOf`; the collab service and the API
 * read it back with `parseDocName`.
 */
export const DOC_KINDS: readonly DocKind[] = ['week', ...(Object.keys(LIVE_RECORD_DOCS) as LiveRecordKind[])];
export const DOC_NAME_PATTERN = new RegExp(`^(?:${DOC_KINDS.join('|')}):[0-9]{1,19}$`);

export type DocKind = 'week' | LiveRecordKind;

export interface ParsedDocName {
  kind: DocKind;
  /** The record id (a snowflake, as a string). */
  id: string;
}

/** The kind and record id of a document name, or null when it is not a valid name. */
export function parseDocName(name: unknown): ParsedDocName | null {
  if (typeof name !== 'string' || !DOC_NAME_PATTERN.test(name)) return null;
  const colon = name.indexOf(':');
  return { kind: name.slice(0, colon) as DocKind, id: name.slice(colon + 1) };
}

/** The document name of a record, e.g. `docNameOf('week', '123')` → `week:123`. */
export const docNameOf = (kind: DocKind, id: string) => `${kind}:${id}`;
