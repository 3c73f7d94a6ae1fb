import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { z } from 'zod';
import { fleetOf } from '@sprout/core/datasource/fleet';
import { moveTenant, schemaState } from '@sprout/core/datasource/move';
import {
  type DataSourceRow,
  dataSourceDatabase,
  dataSourcePassword,
  findDataSource,
  forgetDataSource,
  testConnection,
} from '@sprout/core/datasource/sources';
import { type Database, databaseOptions, inSystem, tenantRouter } from '@sprout/core/db';
import { AppError, badRequest, forbidden } from '@sprout/core/errors';
import { t } from '@sprout/core/i18n';
import { nextId } from '@sprout/core/ids';
import { PLATFORM_TENANT_ID } from '@sprout/core/permissions/constants';
import { formatDateTime } from '@sprout/core/time';
import { int, text, textOrNull, time } from '../../http/answer';
import { requireButtonOf } from '../../http/buttons';
import { backgroundWork } from '../../http/jobs';
import { IdSchema, NullableIdSchema } from '../../http/params';
import { found, Routes } from '../../http/routes';
import { tenantOf } from '../../plugins/context';
import { dataSources, DATASOURCE_BASE } from './datasource-resource';
import { DataSourceSubmit, dataSourceSecret } from './fields';
import { dsDb } from './tables';

const TenantIdSchema = z.string().regex(/^\d{6}$/, '$validation.id');

/** A move of a tenant as its progress call answers it. */
const MoveSchema = z.object({
  id: text,
  tenantId: text,
  datasourceId: text,
  phase: text,
  done: int,
  total: int,
  relation: textOrNull,
  error: textOrNull,
  createTime: time,
  updateTime: time,
});

const platformOnly = (tenantId: string) => {
  if (tenantId !== PLATFORM_TENANT_ID) throw forbidden();
};

/** A failure stored on a move row: its message key and parameters, translated when read. */
const storedError = (err: unknown) =>
  JSON.stringify(
    err instanceof AppError
      ? { key: err.messageKey, params: err.params ?? {} }
      : { key: 'datasource.moveFailed', params: { reason: err instanceof Error ? err.message : String(err) } },
  );

/*
 * Hand-written beside the builder's list, detail and remove: a submit that wraps the password
 * and tests the connection first (the server's reason when it fails), and the tenant's
 * binding (`/blade-system/tenant/datasource`), which moves its data as a job with progress.
 */
export async function dataSourceRoutes(app: FastifyInstance) {
  const route = new Routes(app, ['Data sources']);
  const later = backgroundWork(app);
  const tz = () => app.config.TIME_ZONE;
  const options = () => {
    const { url: _u, dataDir: _d, ...rest } = databaseOptions(app.config);
    return rest;
  };

  route.post(`${DATASOURCE_BASE}/submit`, {
    summary:
      'Adds (no id) or updates a data source (PostgreSQL); the connection is tested first and its failure named; the password is stored wrapped and never answered (blank or the mask on edit keeps it)',
    config: { buttons: ['datasource_add', 'datasource_edit'] },
    merged: DataSourceSubmit,
    data: dataSources.answer,
    done: (b) => (b.id ? 'http.updated' : 'http.added'),
    handler: async (request, b) => {
      const id = b.id ?? undefined;
      const { tenantId, userId } = tenantOf(request);
      platformOnly(tenantId);
      await requireButtonOf(request, id ? 'datasource_edit' : 'datasource_add');
      const refuse = (field: string, key: string, params: Record<string, string> = {}) => {
        const message = t(request.lang, key, params);
        return new AppError('validation_failed', 'error.validation', { fields: `${field}: ${message}` }, [
          { field, message },
        ]);
      };
      const before = id
        ? found(
            await request.tx((trx) =>
              dsDb(trx)
                .selectFrom('datasource')
                .selectAll()
                .where('tenant_id', '=', PLATFORM_TENANT_ID)
                .where('id', '=', id)
                .where('is_deleted', '=', 0)
                .executeTakeFirst(),
            ),
          )
        : undefined;
      if (before && (before.url !== b.url || before.username !== b.username)) {
        const bound = await request.tx((trx) =>
          sql<{
            n: number;
          }>`select count(*)::int as n from tenant where datasource_id = ${id} and is_deleted = 0`.execute(trx),
        );
        // Its tenants' data is there: pointing the row at another server would lose it.
        if (bound.rows[0]?.n) throw refuse('url', 'datasource.boundUrl', { name: before.name });
      }
      // The connection is tested before anything is stored, with the password it will use.
      const password = b.password ?? (before ? await dataSourcePassword({ ...before, id: String(before.id) }) : '');
      const test = await testConnection(b.url, b.username, password);
      if (!test.ok) throw refuse('url', 'datasource.connectFailed', { reason: test.reason });
      const rowId = id ?? nextId();
      const saved = await request.tx(async (trx) => {
        const db = dsDb(trx);
        const taken = await db
          .selectFrom('datasource')
          .select('id')
          .where('tenant_id', '=', PLATFORM_TENANT_ID)
          .where('name', '=', b.name)
          .where('is_deleted', '=', 0)
          .$if(Boolean(id), (q) => q.where('id', '<>', id as string))
          .executeTakeFirst();
        if (taken) throw refuse('name', 'datasource.nameTaken', { name: b.name });
        const values = {
          name: b.name,
          driver_class: b.driverClass,
          url: b.url,
          username: b.username,
          remark: b.remark,
          ...(await dataSourceSecret.columns(PLATFORM_TENANT_ID, rowId, b.password)),
          update_user: userId ?? null,
          update_time: new Date(),
        };
        if (id)
          return db
            .updateTable('datasource')
            .set(values)
            .where('tenant_id', '=', PLATFORM_TENANT_ID)
            .where('id', '=', id)
            .returningAll()
            .executeTakeFirstOrThrow();
        return db
          .insertInto('datasource')
          .values({ ...values, tenant_id: PLATFORM_TENANT_ID, id: rowId, create_user: userId ?? null })
          .returningAll()
          .executeTakeFirstOrThrow();
      });
      // Its pool is opened again with the new settings when next needed.
      if (id) await forgetDataSource(app.database, id);
      return dataSources.present(saved as never, tz()) as never;
    },
  });

  route.post('/api/blade-system/tenant/datasource', {
    summary:
      'Binds a tenant to a data source (tenantId, datasourceId; empty: back to the main database): checks it, answers the move’s id, then copies, verifies, switches',
    description:
      'The move is a job: poll /api/blade-system/tenant/datasource/progress?id=. The tenant’s calls wait (then 503) during the switch.',
    merged: z.object({ tenantId: TenantIdSchema, datasourceId: NullableIdSchema }),
    data: z.object({ id: text }),
    done: 'datasource.moveStarted',
    handler: async (request, b) => {
      const caller = tenantOf(request);
      platformOnly(caller.tenantId);
      await requireButtonOf(request, 'tenant_datasource');
      if (b.tenantId === PLATFORM_TENANT_ID) throw badRequest('system.platformTenant');
      const tenant = await inSystem(app.database, (trx) =>
        trx
          .selectFrom('tenant')
          .select(['tenant_id', 'datasource_id'])
          .where('tenant_id', '=', b.tenantId)
          .where('is_deleted', '=', 0)
          .executeTakeFirst(),
      );
      if (!tenant) throw badRequest('system.tenantNotFound', { id: b.tenantId });
      const router = tenantRouter(app.database);
      // Every process's gate closes (the fleet's, when the platform joined one), not only this one's.
      const fleet = fleetOf(app.database);
      if (router.moving(b.tenantId) || (await fleet?.movingAnywhere(b.tenantId)))
        throw new AppError('conflict', 'datasource.moving', { tenantId: b.tenantId });
      const current = tenant.datasource_id === null ? null : String(tenant.datasource_id);
      if ((current ?? null) === (b.datasourceId ?? null))
        throw badRequest('datasource.alreadyThere', { tenantId: b.tenantId });
      let row: DataSourceRow | null = null;
      let target: Database = app.database;
      if (b.datasourceId) {
        row = await findDataSource(app.database, b.datasourceId);
        if (!row) throw badRequest('datasource.notFound', { id: b.datasourceId });
        try {
          target = await dataSourceDatabase(app.database, row, options());
        } catch (err) {
          throw badRequest('datasource.unreachable', {
            name: row.name,
            reason: err instanceof Error ? err.message : String(err),
          });
        }
        // A database of another schema version is refused now, with both versions named.
        await schemaState(app.database, target);
      }
      const moveId = nextId();
      const write = (set: Record<string, unknown>) =>
        inSystem(app.database, (trx) =>
          dsDb(trx)
            .updateTable('tenant_move')
            .set({ ...set, update_time: new Date() })
            .where('tenant_id', '=', PLATFORM_TENANT_ID)
            .where('id', '=', moveId)
            .execute(),
        );
      await inSystem(app.database, (trx) =>
        dsDb(trx)
          .insertInto('tenant_move')
          .values({
            tenant_id: PLATFORM_TENANT_ID,
            id: moveId,
            moved_tenant_id: b.tenantId,
            datasource_id: b.datasourceId ?? null,
            phase: 'check',
            create_user: caller.userId ?? null,
          })
          .execute(),
      );
      later(async () => {
        let last = '';
        try {
          const result = await moveTenant({
            router,
            gate: fleet,
            tenantId: b.tenantId,
            to: target,
            onProgress: (p) => {
              const key = `${p.phase}:${p.done}`;
              if (key === last) return;
              last = key;
              void write({ phase: p.phase, done: p.done, total: p.total, relation: p.relation ?? null }).catch(
                () => undefined,
              );
            },
            onSwitch: () =>
              inSystem(app.database, (trx) =>
                trx
                  .updateTable('tenant')
                  .set({ datasource_id: b.datasourceId ?? null, update_time: new Date() })
                  .where('tenant_id', '=', b.tenantId)
                  .execute(),
              ).then(() => undefined),
          });
          await write({
            phase: 'done',
            counts: JSON.stringify(result.counts),
            error: result.leftovers ? storedError(new Error(result.leftovers)) : null,
          });
        } catch (err) {
          await write({ phase: 'failed', error: storedError(err) });
        }
      });
      return { id: moveId };
    },
  });

  route.get('/api/blade-system/tenant/datasource/progress', {
    summary:
      'A tenant move’s progress: phase (check, copy, verify, switch, cleanup, done, failed), relations done of total, the failure’s reason',
    query: z.object({ id: IdSchema }),
    data: MoveSchema,
    handler: async (request, q) => {
      platformOnly(tenantOf(request).tenantId);
      const m = found(
        await request.tx((trx) =>
          dsDb(trx)
            .selectFrom('tenant_move')
            .selectAll()
            .where('tenant_id', '=', PLATFORM_TENANT_ID)
            .where('id', '=', q.id)
            .executeTakeFirst(),
        ),
      );
      let error: string | null = null;
      if (m.error) {
        try {
          const e = JSON.parse(m.error) as { key: string; params: Record<string, string> };
          error = t(request.lang, e.key, e.params);
        } catch {
          error = m.error;
        }
      }
      return {
        id: String(m.id),
        tenantId: m.moved_tenant_id,
        datasourceId: m.datasource_id === null ? '' : String(m.datasource_id),
        phase: m.phase,
        done: m.done,
        total: m.total,
        relation: m.relation,
        error,
        createTime: formatDateTime(m.create_time, tz()),
        updateTime: formatDateTime(m.update_time, tz()),
      };
    },
  });
}
