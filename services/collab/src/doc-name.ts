import { z } from 'zod';

/**
 * Document names bind a live document to a record: `week:<record id>`. Other kinds are
 * refused until they are added here (with their seed and access rules).
 */
export const DOC_NAME_PATTERN = /^week:[0-9]{1,19}$/;
export const DocNameSchema = z.string().max(64).regex(DOC_NAME_PATTERN);

export type DocKind = 'week';

export interface ParsedDocName {
  kind: DocKind;
  /** The record id (a snowflake, as a string). */
  id: string;
}

/** The kind and record id of a document name, or null when it is not a valid name. */
export function parseDocName(name: unknown): ParsedDocName | null {
  const r = DocNameSchema.safeParse(name);
  if (!r.success) return null;
  const colon = r.data.indexOf(':');
  return { kind: r.data.slice(0, colon) as DocKind, id: r.data.slice(colon + 1) };
}

/** The document name of a record, e.g. `docNameOf('week', '123')` → `week:123`. */
export const docNameOf = (kind: DocKind, id: string) => `${kind}:${id}`;
