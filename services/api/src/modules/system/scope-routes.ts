import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { containsPattern, type DB } from '@sprout/core/db';
import type { ScopeApi, ScopeData } from '@sprout/core/db/tables-permissions';
import { badRequest, notFound } from '@sprout/core/errors';
import { ok } from '@sprout/core/http/envelope';
import { findPage, PageQuerySchema } from '@sprout/core/http/paging';
import { nextId } from '@sprout/core/ids';
import { customDeptIds } from '@sprout/core/permissions/ability';
import {
  camelCase,
  defaultScopeColumn,
  parseScopeFields,
  RESOURCES,
  SCOPE_CUSTOM,
  snakeCase,
} from '@sprout/core/permissions/resources';
import { formatDateTime } from '@sprout/core/time';
import { tenantOf } from '../../plugins/context';
import { requireKnownIds } from '../../http/known';
import { IdSchema, intEnum, optionalText, RequiredIdListSchema } from '../../http/params';

export const presentDataScope = (d: ScopeData, tz: string) => ({
  id: String(d.id),
  menuId: String(d.menu_id),
  code: d.code ?? '',
  resourceCode: d.resource_code,
  scopeName: d.scope_name,
  scopeField: d.scope_field,
  scopeColumn: d.scope_column,
  scopeType: d.scope_type,
  scopeValue: d.scope_value ?? '',
  remark: d.remark ?? '',
  createTime: formatDateTime(d.create_time, tz),
});

export const presentApiScope = (a: ScopeApi, tz: string) => ({
  id: String(a.id),
  menuId: String(a.menu_id),
  resourceCode: a.resource_code,
  scopeName: a.scope_name,
  scopePath: a.scope_path,
  scopeType: a.scope_type,
  remark: a.remark ?? '',
  createTime: formatDateTime(a.create_time, tz),
});

/** The API pattern grammar of the catalogue: `METHOD /api/...` with `*` and `**`. */
export const API_PATTERN = /^(\*|GET|POST|PUT|DELETE|PATCH) \/api\/[A-Za-z0-9_\-/*.:]+$/;

export const DataScopeSubmitSchema = z.object({
  id: IdSchema.optional(),
  menuId: IdSchema,
  resourceCode: z.string().trim().min(1, '$validation.required').max(64),
  scopeName: z.string().trim().min(1, '$validation.required').max(100),
  scopeField: z.string().trim().max(1000).default('*'),
  scopeColumn: optionalText(64),
  scopeType: intEnum([1, 2, 3, 4, 5, 6] as const),
  scopeValue: optionalText(2000),
  remark: optionalText(255),
});

export const ApiScopeSubmitSchema = z.object({
  id: IdSchema.optional(),
  menuId: IdSchema,
  resourceCode: optionalText(64),
  scopeName: z.string().trim().min(1, '$validation.required').max(100),
  scopePath: z.string().trim().max(255),
  scopeType: intEnum([1, 2] as const).default(2),
  remark: optionalText(255),
});

const ListSchema = PageQuerySchema.extend({
  menuId: IdSchema.optional(),
  resourceCode: z.string().trim().max(64).optional(),
  scopeName: z.string().trim().max(100).optional(),
});

export async function scopeRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tz = app.config.TIME_ZONE;

  /** The menu a scope hangs under must exist in the catalogue. */
  const checkMenu = async (trx: Kysely<DB>, menuId: string) => {
    const m = await trx
      .selectFrom('menu')
      .select(['code'])
      .where('id', '=', menuId)
      .where('is_deleted', '=', 0)
      .executeTakeFirst();
    if (!m) throw badRequest('system.unknownMenus', { ids: menuId });
    return m.code;
  };

  for (const [family, table] of [
    ['data-scope', 'scope_data'],
    ['api-scope', 'scope_api'],
  ] as const) {
    const tag = family === 'data-scope' ? 'data scopes' : 'API scopes';
    const present = (row: ScopeData | ScopeApi) =>
      family === 'data-scope' ? presentDataScope(row as ScopeData, tz) : presentApiScope(row as ScopeApi, tz);

    r.get(
      `/api/blade-system/${family}/list`,
      {
        schema: {
          tags: [tag],
          summary: `${tag} of the catalogue, paged (filters menuId, resourceCode, scopeName)`,
          querystring: ListSchema,
        },
      },
      async (request) => {
        const q = request.query;
        let qb = app.database.db.selectFrom(table).selectAll().where('is_deleted', '=', 0);
        if (q.menuId) qb = qb.where('menu_id', '=', q.menuId);
        if (q.resourceCode) qb = qb.where('resource_code', 'like', containsPattern(q.resourceCode));
        if (q.scopeName) qb = qb.where('scope_name', 'like', containsPattern(q.scopeName));
        const page = await findPage(app.database, tenantOf(request), qb.orderBy('id'), q, present);
        return ok(page, request.lang);
      },
    );

    r.get(
      `/api/blade-system/${family}/detail`,
      { schema: { tags: [tag], summary: `One ${tag.slice(0, -1)}`, querystring: z.object({ id: IdSchema }) } },
      async (request) => {
        const row = await request.tx((trx) =>
          trx
            .selectFrom(table)
            .selectAll()
            .where('id', '=', request.query.id)
            .where('is_deleted', '=', 0)
            .executeTakeFirst(),
        );
        if (!row) throw notFound();
        return ok(present(row), request.lang);
      },
    );

    r.post(
      `/api/blade-system/${family}/remove`,
      {
        schema: {
          tags: [tag],
          summary: `Deletes ${tag} (ids); roles holding them lose them`,
          querystring: z.object({ ids: RequiredIdListSchema }),
        },
      },
      async (request) => {
        const ctx = tenantOf(request);
        const ids = request.query.ids;
        await request.tx(async (trx) => {
          await requireKnownIds(trx, { table, alias: 's', tenantId: ctx.tenantId, ids });
          await trx
            .updateTable(table)
            .set({ is_deleted: 1, update_time: new Date() })
            .where('tenant_id', '=', ctx.tenantId)
            .where('id', 'in', ids)
            .execute();
        });
        await app.permissions.invalidateCatalogue();
        return ok(null, request.lang, 'system.removed');
      },
    );
  }

  r.post(
    '/api/blade-system/data-scope/submit',
    {
      schema: {
        tags: ['data scopes'],
        summary:
          'Adds (no id) or updates a data scope: type 1 all, 2 own, 3 own dept, 4 dept and below, 5 custom (dept ids), 6 own classes',
        body: DataScopeSubmitSchema,
      },
    },
    async (request) => {
      const b = request.body;
      const ctx = tenantOf(request);
      const resource = RESOURCES[b.resourceCode];
      if (!resource) throw badRequest('system.scopeResourceUnknown', { resource: b.resourceCode });
      const column = b.scopeColumn ?? defaultScopeColumn(b.resourceCode, b.scopeType);
      if (!/^[a-z][a-z0-9_]{0,63}$/.test(column) || !resource.scopeFields.includes(camelCase(column)))
        throw badRequest('system.scopeColumnInvalid', {
          column,
          resource: b.resourceCode,
          columns: resource.scopeFields.map(snakeCase).join(', '),
        });
      try {
        parseScopeFields(b.resourceCode, b.scopeField);
      } catch (err) {
        throw badRequest('system.scopeFieldInvalid', { detail: (err as Error).message });
      }
      let value = b.scopeValue;
      if (b.scopeType === SCOPE_CUSTOM) {
        const ids = customDeptIds(value);
        const parts = (value ?? '').split(',').filter((s) => s.trim());
        if (!ids.length || ids.length !== parts.length) throw badRequest('system.scopeValueInvalid');
        value = ids.join(',');
      }
      const saved = await request.tx(async (trx) => {
        await checkMenu(trx, b.menuId);
        const values = {
          menu_id: b.menuId,
          resource_code: b.resourceCode,
          scope_name: b.scopeName,
          scope_field: b.scopeField || '*',
          scope_column: column,
          scope_type: b.scopeType,
          scope_value: value,
          remark: b.remark,
          update_time: new Date(),
        };
        if (b.id) {
          const row = await trx
            .updateTable('scope_data')
            .set(values)
            .where('tenant_id', '=', ctx.tenantId)
            .where('id', '=', b.id)
            .where('is_deleted', '=', 0)
            .returningAll()
            .executeTakeFirst();
          if (!row) throw notFound();
          return row;
        }
        return trx
          .insertInto('scope_data')
          .values({ ...values, tenant_id: ctx.tenantId, id: nextId() })
          .returningAll()
          .executeTakeFirstOrThrow();
      });
      await app.permissions.invalidateCatalogue();
      return ok(presentDataScope(saved, tz), request.lang, b.id ? 'system.updated' : 'system.added');
    },
  );

  r.post(
    '/api/blade-system/api-scope/submit',
    {
      schema: {
        tags: ['API scopes'],
        summary:
          'Adds (no id) or updates an API scope: scopePath is `METHOD /api/...` (`*` one segment, `**` the rest)',
        body: ApiScopeSubmitSchema,
      },
    },
    async (request) => {
      const b = request.body;
      const ctx = tenantOf(request);
      if (!API_PATTERN.test(b.scopePath)) throw badRequest('system.scopePathInvalid');
      const saved = await request.tx(async (trx) => {
        const menuCode = await checkMenu(trx, b.menuId);
        const values = {
          menu_id: b.menuId,
          resource_code: b.resourceCode ?? menuCode,
          scope_name: b.scopeName,
          scope_path: b.scopePath,
          scope_type: b.scopeType,
          remark: b.remark,
          update_time: new Date(),
        };
        if (b.id) {
          const row = await trx
            .updateTable('scope_api')
            .set(values)
            .where('tenant_id', '=', ctx.tenantId)
            .where('id', '=', b.id)
            .where('is_deleted', '=', 0)
            .returningAll()
            .executeTakeFirst();
          if (!row) throw notFound();
          return row;
        }
        return trx
          .insertInto('scope_api')
          .values({ ...values, tenant_id: ctx.tenantId, id: nextId() })
          .returningAll()
          .executeTakeFirstOrThrow();
      });
      await app.permissions.invalidateCatalogue();
      return ok(presentApiScope(saved, tz), request.lang, b.id ? 'system.updated' : 'system.added');
    },
  );
}
