import type { Kysely } from 'kysely';
import type { DB } from '@sprout/core/db';
import { ensureReadModel, projectionNamed } from '@sprout/core/events/projections/registry';
import { registerRecordProjections } from '@sprout/core/records/projection';

/** Before a family's demo records are written: the record read models exist and follow the events. */
export async function readyRecordModels(trx: Kysely<DB>): Promise<void> {
  registerRecordProjections();
  for (const name of ['record_list', 'record_favorite', 'record_activity']) {
    const def = projectionNamed(name);
    if (def) await ensureReadModel(trx, def);
  }
}
