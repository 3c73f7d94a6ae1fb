/**
 * The record kinds written live by several people besides the week (no imports: the web kit's
 * pure definition checks a family against it without loading yjs). Their Y.Doc shape:
 * `record-doc.ts`; their document names: `doc-name.ts`.
 */
export interface LiveDocShape {
  /** Its content's rich fields (Y.XmlFragment each); the rest is the `record` map's. */
  rich: readonly string[];
}

export const LIVE_RECORD_DOCS = {
  class_work: { rich: ['situation', 'measures', 'homeCooperation'] },
  class_summary: { rich: ['highlights', 'problems', 'nextSteps'] },
} as const satisfies Record<string, LiveDocShape>;

export type LiveRecordKind = keyof typeof LIVE_RECORD_DOCS;

/** The document shape of a co-edited kind, or null when the kind is not co-edited. */
export function liveDocShape(kind: string): LiveDocShape | null {
  return Object.hasOwn(LIVE_RECORD_DOCS, kind) ? LIVE_RECORD_DOCS[kind as LiveRecordKind] : null;
}
