import { sql } from 'kysely';
import { type Database, inSystem } from '@sprout/core/db';
import { type KeyWrapper, keyWrapper } from '@sprout/core/keys';
import type { WorkerService } from '@sprout/worker';
import { ossSecretContext } from './store';

/**
 * Rewraps every stored oss secret key not wrapped under the current key (a MASTER_KEY
 * rotation: the previous key still unwraps, MASTER_KEY_PREVIOUS), as core's `rewrapSecrets`
 * does for its own columns. Rows no known key unwraps are counted and left as they are.
 */
export async function rewrapOssSecrets(
  database: Database,
  w: KeyWrapper = keyWrapper(),
  batch = 500,
): Promise<{ rewrapped: number; unreadable: number }> {
  const out = { rewrapped: 0, unreadable: 0 };
  let after: [string, string] = ['', '0'];
  for (;;) {
    const n = await inSystem(database, async (trx) => {
      const { rows } = await sql<{ tenant_id: string; id: string; secret_key: string; wrapped_by: string }>`
        select tenant_id, id::text, secret_key, secret_key_wrapped_by as wrapped_by from oss
        where secret_key is not null and secret_key_wrapped_by is not null and secret_key_wrapped_by <> ${w.currentKeyId}
          and (tenant_id, id) > (${after[0]}, ${after[1]}::bigint)
        order by tenant_id, id limit ${batch}`.execute(trx);
      for (const r of rows) {
        after = [r.tenant_id, r.id];
        const context = ossSecretContext(r.tenant_id, r.id);
        let plain: Buffer;
        try {
          plain = await w.unwrap({ keyId: r.wrapped_by, data: Buffer.from(r.secret_key, 'base64') }, context);
        } catch {
          out.unreadable++;
          continue;
        }
        const next = await w.wrap(plain, context);
        await sql`update oss set secret_key = ${next.data.toString('base64')}, secret_key_wrapped_by = ${next.keyId}
          where tenant_id = ${r.tenant_id} and id = ${r.id}::bigint and secret_key = ${r.secret_key}`.execute(trx);
        out.rewrapped++;
      }
      return rows.length;
    });
    if (n < batch) break;
  }
  return out;
}

/** At the worker's start: the storage secrets follow a master key rotation. */
export const ossRewrapService: WorkerService = {
  name: 'oss-rewrap',
  async start(platform, log) {
    const r = await rewrapOssSecrets(platform.database);
    if (r.rewrapped || r.unreadable)
      log(`oss secrets: ${r.rewrapped} rewrapped under the current key, ${r.unreadable} unreadable`);
    return { stop: async () => undefined };
  },
};
