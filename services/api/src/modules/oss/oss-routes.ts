import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { z } from 'zod';
import { badRequest, notFound } from '@sprout/core/errors';
import { nextId } from '@sprout/core/ids';
import { requireButtonOf } from '../../http/buttons';
import { refuseTaken } from '../../http/known';
import { IdSchema } from '../../http/params';
import { readIn } from '../../http/query';
import { found, Routes } from '../../http/routes';
import { tenantOf } from '../../plugins/context';
import { OssSubmit, ossSecret } from './fields';
import { ossConfigs } from './oss-resource';
import { announceStoreChange, type OssRow, storeOf } from './store';

/*
 * Hand-written beside the builder's list, detail and remove: a submit whose secret is wrapped
 * (KeyWrapper) and kept when left blank, and which checks an enabled S3 store's new settings;
 * and enable, which checks the store and then makes it the tenant's only enabled one.
 */

const BASE = '/api/blade-resource/oss';
const ENABLED = 2;
const DISABLED = 1;

type StoredOss = OssRow & { oss_code: string; status: number } & Record<string, unknown>;

/** Refused with the storage's own reason when it cannot be reached or written. */
async function requireReachable(row: OssRow & { oss_code: string }, request: FastifyRequest) {
  if (row.category !== 's3') return;
  const store = await storeOf(row, request.server.config, { maxAttempts: 1 });
  try {
    await store.check();
  } catch (err) {
    throw badRequest('oss.unreachable', { ossCode: row.oss_code, reason: (err as Error).message });
  } finally {
    if ('destroy' in store) store.destroy();
  }
}

export async function ossRoutes(app: FastifyInstance) {
  const route = new Routes(app, ['Object storage']);
  const tz = () => app.config.TIME_ZONE;

  route.post(`${BASE}/submit`, {
    summary:
      'Adds (no id) or updates a storage configuration. The secret key is stored wrapped and never answered; left blank (or the mask) when editing, the stored one stays. Editing the enabled S3 configuration checks its bucket first',
    config: { buttons: ['oss_add', 'oss_edit'] },
    merged: OssSubmit,
    data: ossConfigs.answer,
    done: (b) => (b.id ? 'http.updated' : 'http.added'),
    handler: async (request, b) => {
      const editing = b.id ?? undefined;
      await requireButtonOf(request, editing ? 'oss_edit' : 'oss_add');
      const { tenantId, userId } = tenantOf(request);
      const by = userId ?? null;
      const id = editing ?? nextId();
      const local = b.category === 'local';
      const values = {
        category: b.category,
        oss_code: b.ossCode,
        // The platform's disk takes no endpoint, bucket or keys: tenants choose no paths on the server.
        endpoint: local ? null : b.endpoint,
        bucket_name: local ? null : b.bucketName,
        access_key: local ? null : b.accessKey,
        app_id: b.appId,
        region: local ? null : b.region,
        remark: b.remark,
        ...(local ? ossSecret.cleared : await ossSecret.columns(tenantId, id, b.secretKey)),
        update_user: by,
        update_time: new Date(),
      };
      const saved = await request.tx(async (trx) => {
        await refuseTaken(
          trx,
          { table: 'oss' as never, tenantId, values: { oss_code: b.ossCode }, id: editing },
          'oss.codeTaken',
          {
            ossCode: b.ossCode,
          },
        );
        if (!editing) {
          if (!local && !ossSecret.willHave(b.secretKey)) throw badRequest('oss.secretKey');
          const { rows } = await sql<StoredOss>`insert into oss (${sql.join(
            Object.keys(values).map((c) => sql.ref(c)),
          )}, tenant_id, id, status, create_user) values (${sql.join(Object.values(values))}, ${tenantId}, ${id}, ${DISABLED}, ${by})
            returning *`.execute(trx);
          return rows[0] as StoredOss;
        }
        const { rows: before } = await sql<StoredOss>`select * from oss
          where tenant_id = ${tenantId} and id = ${id} and is_deleted = 0 for update`.execute(trx);
        const old = found(before[0]);
        if (!local && !ossSecret.willHave(b.secretKey, old)) throw badRequest('oss.secretKey');
        const { rows } = await sql<StoredOss>`update oss set ${sql.join(
          Object.entries(values).map(([c, v]) => sql`${sql.ref(c)} = ${v}`),
        )} where tenant_id = ${tenantId} and id = ${id} returning *`.execute(trx);
        const row = rows[0] as StoredOss;
        // The store files go to now must work with its new settings before they count.
        if (row.status === ENABLED) await requireReachable(row, request);
        return row;
      });
      await announceStoreChange(app.database, app.auth.kv, tenantId);
      return ossConfigs.present(saved, tz()) as never;
    },
  });

  route.post(`${BASE}/enable`, {
    summary:
      "Makes the configuration the tenant's one enabled store (the others are disabled in the same transaction); an S3 configuration whose bucket cannot be reached or written is refused with the storage's reason",
    config: { buttons: ['oss_enable'] },
    merged: z.object({ id: IdSchema }),
    data: ossConfigs.answer,
    done: 'http.updated',
    handler: async (request, { id }) => {
      const { tenantId, userId } = tenantOf(request);
      const [row] = await readIn(request, (db, ctx) =>
        sql<StoredOss>`select * from oss where tenant_id = ${ctx.tenantId} and id = ${id} and is_deleted = 0`.compile(
          db,
        ),
      );
      if (!row) throw notFound();
      // Outside the transaction: the check goes over the network.
      await requireReachable(row, request);
      const saved = await request.tx(async (trx) => {
        // One enable at a time per tenant: the tenant's rows are locked first.
        await sql`select id from oss where tenant_id = ${tenantId} for update`.execute(trx);
        const stamp = sql`update_user = ${userId ?? null}, update_time = now()`;
        await sql`update oss set status = ${DISABLED}, ${stamp}
          where tenant_id = ${tenantId} and status = ${ENABLED} and id <> ${id} and is_deleted = 0`.execute(trx);
        const { rows } = await sql<StoredOss>`update oss set status = ${ENABLED}, ${stamp}
          where tenant_id = ${tenantId} and id = ${id} and is_deleted = 0 returning *`.execute(trx);
        return found(rows[0]);
      });
      await announceStoreChange(app.database, app.auth.kv, tenantId);
      return ossConfigs.present(saved, tz()) as never;
    },
  });
}
