import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { DB } from '@sprout/core/db';
import { badRequest } from '@sprout/core/errors';
import { customDeptIds } from '@sprout/core/permissions/ability';
import {
  camelCase,
  defaultScopeColumn,
  parseScopeFields,
  RESOURCES,
  SCOPE_CUSTOM,
  snakeCase,
} from '@sprout/core/permissions/resources';
import { orEmpty, text } from '../../http/answer';
import { IdSchema, intEnum, optionalText } from '../../http/params';
import { defineResource } from '../../http/resource';
import { liveMenuCode } from './scope-repo';

/** The API pattern grammar of the catalogue: `METHOD /api/...` with `*` and `**`. */
export const API_PATTERN = /^(\*|GET|POST|PUT|DELETE|PATCH) \/api\/[A-Za-z0-9_\-/*.:]+$/;

/** The menu a scope hangs under must exist in the catalogue: its code. */
async function menuCode(trx: Kysely<DB>, menuId: string) {
  const code = await liveMenuCode(trx, menuId);
  if (code === undefined) throw badRequest('system.unknownMenus', { ids: menuId });
  return code;
}

/** What both scope families share: the catalogue, their search fields, the abilities they decide. */
const scopeFamily = {
  catalogue: true,
  filters: { menuId: 'id', resourceCode: 'like', scopeName: 'like' },
  afterWrite: (request: FastifyRequest) => request.server.permissions.invalidateCatalogue(),
} as const;

/** The data scopes of the catalogue (which rows and fields a holder sees): list, detail, add or update, remove. */
const dataScopes = defineResource({
  ...scopeFamily,
  code: 'data_scope',
  table: 'scope_data',
  path: '/api/blade-system/data-scope',
  tag: 'data scopes',
  label: { zh: '数据权限', en: 'data scope' },
  fields: z.object({
    menuId: IdSchema,
    resourceCode: z.string().trim().min(1, '$validation.required').max(64),
    scopeName: z.string().trim().min(1, '$validation.required').max(100),
    scopeField: z.string().trim().max(1000).default('*'),
    scopeColumn: optionalText(64),
    scopeType: intEnum([1, 2, 3, 4, 5, 6] as const),
    scopeValue: optionalText(2000),
    remark: optionalText(255),
  }),
  // The seed's own codes (read, never written here).
  more: { fields: { code: text }, present: (row) => ({ code: orEmpty(row.code as string | null) }) },
  keys: [
    'id',
    'menuId',
    'code',
    'resourceCode',
    'scopeName',
    'scopeField',
    'scopeColumn',
    'scopeType',
    'scopeValue',
    'remark',
    'createTime',
  ],
  // Type 1 all, 2 own, 3 own dept, 4 dept and below, 5 custom (dept ids), 6 own classes.
  beforeSave: async (trx, _tenantId, b) => {
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
    await menuCode(trx, b.menuId);
    return { scopeField: b.scopeField || '*', scopeColumn: column, scopeValue: value };
  },
});

/** The API scopes of the catalogue (`METHOD /api/...` patterns a holder may call): list, detail, add or update, remove. */
const apiScopes = defineResource({
  ...scopeFamily,
  code: 'api_scope',
  table: 'scope_api',
  path: '/api/blade-system/api-scope',
  tag: 'API scopes',
  label: { zh: '接口权限', en: 'API scope' },
  fields: z.object({
    menuId: IdSchema,
    resourceCode: optionalText(64),
    scopeName: z.string().trim().min(1, '$validation.required').max(100),
    // `METHOD /api/...` (`*` one segment, `**` the rest).
    scopePath: z.string().trim().max(255),
    scopeType: intEnum([1, 2] as const).default(2),
    remark: optionalText(255),
  }),
  beforeSave: async (trx, _tenantId, b) => {
    if (!API_PATTERN.test(b.scopePath)) throw badRequest('system.scopePathInvalid');
    const code = await menuCode(trx, b.menuId);
    return { resourceCode: b.resourceCode ?? code };
  },
});

/** Data and API scopes of the catalogue (platform): list, detail, add or update, remove. */
export async function scopeRoutes(app: FastifyInstance) {
  await dataScopes(app);
  await apiScopes(app);
}
