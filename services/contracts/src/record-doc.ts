import * as Y from 'yjs';
import type { LiveDocShape } from './live-kinds';
import { fragmentToRich, type RichText, richToFragment } from './rich-text';

export * from './live-kinds';

/**
 * Record families whose record is one document several people write live (issue 19: the
 * class's teaching team writes its 班级工作计划 and 班级总结 together), and the shape of such a
 * record as a Y.Doc — the week's way (`week-doc.ts`) made general:
 *
 * - each rich field is a top-level `doc.getXmlFragment(<field>)`, bound in the browser by
 *   Tiptap's Collaboration extension (`field: '<field>'`), in y-prosemirror's encoding;
 * - every other content field is a value of `doc.getMap('record')` (its JSON: a title, the
 *   semester, a table's rows), the last writer's value winning per field.
 *
 * A family declares itself co-edited (`live: true`, server and web kit) and is listed here
 * with its rich fields: the collab service seeds documents from it, accepts their names
 * (`docNameOf`) and the API turns a document back into content for a revision. Pure (yjs only).
 */
export const RECORD_MAP = 'record';

/** Canonical JSON of a rich value as a fragment would give it back (for "did it change?"). */
function canonicalRich(value: RichText | null | undefined): string {
  const tmp = new Y.Doc();
  try {
    const f = tmp.getXmlFragment('x');
    richToFragment(value, f);
    return JSON.stringify(fragmentToRich(f));
  } finally {
    tmp.destroy();
  }
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Writes a record's content into its document in one transaction (`origin` passed on): on an
 * empty document the seed, on a filled one only what differs (so the same content is a no-op).
 * A field the document holds but the content lacks is left alone.
 */
export function recordContentToDoc(
  shape: LiveDocShape,
  content: Record<string, unknown>,
  doc: Y.Doc,
  origin?: unknown,
): void {
  doc.transact(() => {
    const map = doc.getMap<unknown>(RECORD_MAP);
    for (const [key, value] of Object.entries(content)) {
      if (shape.rich.includes(key) || value === undefined) continue;
      if (!same(map.get(key), value)) map.set(key, value);
    }
    for (const f of shape.rich) {
      if (!(f in content)) continue;
      const fragment = doc.getXmlFragment(f);
      const value = content[f] as RichText;
      if (JSON.stringify(fragmentToRich(fragment)) !== canonicalRich(value)) richToFragment(value, fragment);
    }
  }, origin);
}

/** The record's content as its document holds it now (rich fields as Tiptap JSON, or '' when empty). */
export function docToRecordContent(shape: LiveDocShape, doc: Y.Doc): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of doc.getMap<unknown>(RECORD_MAP).entries()) out[key] = value;
  for (const f of shape.rich) out[f] = fragmentToRich(doc.getXmlFragment(f));
  return out;
}
