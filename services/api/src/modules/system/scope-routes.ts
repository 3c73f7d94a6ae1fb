import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Selectable } from 'kysely';
import { z } from 'zod';
import type { DB } from '@sprout/core/db';
import type { ScopeApi, ScopeData } from '@sprout/core/db/tables-permissions';
import { badRequest } from '@sprout/core/errors';
import { findPage, PageQuerySchema } from '@sprout/core/http/paging';
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
import { pageSchema } from '../../plugins/serialization';
import { tenantOf } from '../../plugins/context';
import { IdSchema, intEnum, optionalText } from '../../http/params';
import { detailRoute, getRoute, type ZodApp } from '../../http/routes';
import { findScope, liveMenuCode, saveApiScope, saveDataScope, type ScopeTable, scopeList } from './scope-repo';
import { removeRoute, submitRoute, tzOf } from './shapes';

/** A data scope as its screen shows it. */
export const DataScopeSchema = z.object({
  id: z.string(),
  menuId: z.string(),
  code: z.string(),
  resourceCode: z.string(),
  scopeName: z.string(),
  scopeField: z.string(),
  scopeColumn: z.string(),
  scopeType: z.number().int(),
  scopeValue: z.string(),
  remark: z.string(),
  createTime: z.string().nullable(),
});

export const presentDataScope = (d: ScopeData, tz: string): z.output<typeof DataScopeSchema> => ({
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

/** An API scope as its screen shows it. */
export const ApiScopeSchema = z.object({
  id: z.string(),
  menuId: z.string(),
  resourceCode: z.string(),
  scopeName: z.string(),
  scopePath: z.string(),
  scopeType: z.number().int(),
  remark: z.string(),
  createTime: z.string().nullable(),
});

export const presentApiScope = (a: ScopeApi, tz: string): z.output<typeof ApiScopeSchema> => ({
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

/** The list, detail and remove of one scope family (they differ in their rows only). */
function scopeFamily<T extends ScopeTable, S extends z.ZodType>(
  r: ZodApp,
  family: string,
  table: T,
  tag: string,
  data: S,
  present: (row: Selectable<DB[T]>, tz: string) => z.output<S>,
) {
  const tags = [tag];
  getRoute(
    r,
    `/api/blade-system/${family}/list`,
    {
      tags,
      summary: `${tag} of the catalogue, paged (filters menuId, resourceCode, scopeName)`,
      query: ListSchema,
      data: pageSchema(data),
    },
    (request, q) => {
      const database = request.server.database;
      const tz = tzOf(request);
      return findPage(database, tenantOf(request), scopeList(database.db, table, q), q, (row) => present(row, tz));
    },
  );
  detailRoute(
    r,
    `/api/blade-system/${family}/detail`,
    { tags, summary: `One ${tag.slice(0, -1)}`, data },
    async (request, id) => {
      const row = await request.tx((trx) => findScope(trx, table, id));
      return row && present(row, tzOf(request));
    },
  );
  removeRoute(r, `/api/blade-system/${family}/remove`, {
    tags,
    summary: `Deletes ${tag} (ids); roles holding them lose them`,
    table,
    alias: 's',
    after: () => r.permissions.invalidateCatalogue(),
  });
}

export async function scopeRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  /** The menu a scope hangs under must exist in the catalogue. */
  const menuCode = async (trx: Parameters<typeof liveMenuCode>[0], menuId: string) => {
    const code = await liveMenuCode(trx, menuId);
    if (code === undefined) throw badRequest('system.unknownMenus', { ids: menuId });
    return code;
  };

  scopeFamily(r, 'data-scope', 'scope_data', 'data scopes', DataScopeSchema, presentDataScope);
  scopeFamily(r, 'api-scope', 'scope_api', 'API scopes', ApiScopeSchema, presentApiScope);

  submitRoute(
    r,
    '/api/blade-system/data-scope/submit',
    {
      tags: ['data scopes'],
      summary:
        'Adds (no id) or updates a data scope: type 1 all, 2 own, 3 own dept, 4 dept and below, 5 custom (dept ids), 6 own classes',
      body: DataScopeSubmitSchema,
      data: DataScopeSchema,
    },
    async (request, b) => {
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
        await menuCode(trx, b.menuId);
        return saveDataScope(trx, ctx.tenantId, b.id, {
          menu_id: b.menuId,
          resource_code: b.resourceCode,
          scope_name: b.scopeName,
          scope_field: b.scopeField || '*',
          scope_column: column,
          scope_type: b.scopeType,
          scope_value: value,
          remark: b.remark,
          update_time: new Date(),
        });
      });
      await app.permissions.invalidateCatalogue();
      return presentDataScope(saved, tzOf(request));
    },
  );

  submitRoute(
    r,
    '/api/blade-system/api-scope/submit',
    {
      tags: ['API scopes'],
      summary: 'Adds (no id) or updates an API scope: scopePath is `METHOD /api/...` (`*` one segment, `**` the rest)',
      body: ApiScopeSubmitSchema,
      data: ApiScopeSchema,
    },
    async (request, b) => {
      const ctx = tenantOf(request);
      if (!API_PATTERN.test(b.scopePath)) throw badRequest('system.scopePathInvalid');
      const saved = await request.tx(async (trx) => {
        const code = await menuCode(trx, b.menuId);
        return saveApiScope(trx, ctx.tenantId, b.id, {
          menu_id: b.menuId,
          resource_code: b.resourceCode ?? code,
          scope_name: b.scopeName,
          scope_path: b.scopePath,
          scope_type: b.scopeType,
          remark: b.remark,
          update_time: new Date(),
        });
      });
      await app.permissions.invalidateCatalogue();
      return presentApiScope(saved, tzOf(request));
    },
  );
}
