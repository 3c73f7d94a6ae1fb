import type { FastifyInstance } from 'fastify';
import type { Kysely, Selectable } from 'kysely';
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
import { int, text, time } from '../../http/answer';
import { IdSchema, intEnum, optionalText } from '../../http/params';
import { saveRow } from '../../http/query';
import { findScope, liveMenuCode, type ScopeTable, scopeList } from './scope-repo';
import { routesOf, tzOf } from './shapes';

/** A data scope as its screen shows it. */
export const DataScopeSchema = z.object({
  id: text,
  menuId: text,
  code: text,
  resourceCode: text,
  scopeName: text,
  scopeField: text,
  scopeColumn: text,
  scopeType: int,
  scopeValue: text,
  remark: text,
  createTime: time,
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
  id: text,
  menuId: text,
  resourceCode: text,
  scopeName: text,
  scopePath: text,
  scopeType: int,
  remark: text,
  createTime: time,
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
  app: FastifyInstance,
  family: string,
  table: T,
  tag: string,
  data: S,
  present: (row: Selectable<DB[T]>, tz: string) => z.output<S>,
) {
  const route = routesOf(app, tag);
  route.get(`/api/blade-system/${family}/list`, {
    summary: `${tag} of the catalogue, paged (filters menuId, resourceCode, scopeName)`,
    query: ListSchema,
    data: pageSchema(data),
    handler: (request, q) => {
      const tz = tzOf(request);
      return findPage(app.database, tenantOf(request), scopeList(app.database.db, table, q), q, (row) =>
        present(row, tz),
      );
    },
  });
  route.detail(`/api/blade-system/${family}/detail`, {
    summary: `One ${tag.slice(0, -1)}`,
    data,
    find: async (request, id) => {
      const row = await request.tx((trx) => findScope(trx, table, id));
      return row && present(row, tzOf(request));
    },
  });
  route.remove(`/api/blade-system/${family}/remove`, {
    summary: `Deletes ${tag} (ids); roles holding them lose them`,
    table,
    alias: 's',
    after: () => app.permissions.invalidateCatalogue(),
  });
  return route;
}

/** The menu a scope hangs under must exist in the catalogue: its code. */
async function menuCode(trx: Kysely<DB>, menuId: string) {
  const code = await liveMenuCode(trx, menuId);
  if (code === undefined) throw badRequest('system.unknownMenus', { ids: menuId });
  return code;
}

/** Data and API scopes of the catalogue (platform): list, detail, add or update, remove. */
export async function scopeRoutes(app: FastifyInstance) {
  const data = scopeFamily(app, 'data-scope', 'scope_data', 'data scopes', DataScopeSchema, presentDataScope);
  const api = scopeFamily(app, 'api-scope', 'scope_api', 'API scopes', ApiScopeSchema, presentApiScope);

  data.submit('/api/blade-system/data-scope/submit', {
    summary:
      'Adds (no id) or updates a data scope: type 1 all, 2 own, 3 own dept, 4 dept and below, 5 custom (dept ids), 6 own classes',
    body: DataScopeSubmitSchema,
    data: DataScopeSchema,
    save: async (request, b, ctx) => {
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
        return saveRow(trx, 'scope_data', ctx.tenantId, b.id, {
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
  });

  api.submit('/api/blade-system/api-scope/submit', {
    summary: 'Adds (no id) or updates an API scope: scopePath is `METHOD /api/...` (`*` one segment, `**` the rest)',
    body: ApiScopeSubmitSchema,
    data: ApiScopeSchema,
    save: async (request, b, ctx) => {
      if (!API_PATTERN.test(b.scopePath)) throw badRequest('system.scopePathInvalid');
      const saved = await request.tx(async (trx) => {
        const code = await menuCode(trx, b.menuId);
        return saveRow(trx, 'scope_api', ctx.tenantId, b.id, {
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
  });
}
