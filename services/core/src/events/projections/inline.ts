import type { Tx } from '../../db';
import type { RecordedEvent } from '../types';
import { inlineProjectionsFor, type ProjectionDefinition } from './registry';

/**
 * Runs the inline projections of the appended events inside the append's transaction, so
 * a read right after the command sees them. Each projection gets its events in order, in
 * one call; it writes through its view (the live generation).
 */
export async function runInlineProjections(trx: Tx, events: readonly RecordedEvent[]): Promise<void> {
  let batches: Map<ProjectionDefinition, RecordedEvent[]> | undefined;
  for (const e of events) {
    for (const def of inlineProjectionsFor(e.type)) {
      batches ??= new Map();
      const list = batches.get(def);
      if (list) list.push(e);
      else batches.set(def, [e]);
    }
  }
  if (!batches) return;
  for (const [def, list] of batches) await def.handle(trx, list, { table: def.name, rebuilding: false });
}
