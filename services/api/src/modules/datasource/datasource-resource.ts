import { sql } from 'kysely';
import { badRequest } from '@sprout/core/errors';
import { defineResource } from '../../http/resource';
import { DataSourceFields, dataSourceSecret } from './fields';

export const DATASOURCE_BASE = '/api/blade-develop/datasource';

/**
 * Data sources (BladeX's blade_datasource) on the builder: list (search name), detail and
 * remove; the password is never answered (`password` is the mask when one is stored). Submit
 * (the password wrapped, the connection tested) is datasource-routes.ts. Platform only: the
 * rows are tenant 000000's, and row-level security lets no other tenant read them.
 */
export const dataSources = defineResource({
  code: 'datasource',
  path: DATASOURCE_BASE,
  tag: 'Data sources',
  label: { zh: '数据源', en: 'data source' },
  fields: DataSourceFields,
  filters: { name: 'like', url: 'like' },
  order: ['name'],
  more: {
    fields: { password: dataSourceSecret.answer.secretKey },
    present: (row) => ({ password: dataSourceSecret.present(row).secretKey }),
  },
  without: ['submit'],
  // A data source serving a tenant stays: the tenant is moved elsewhere first.
  beforeRemove: async (trx, _tenantId, ids) => {
    const r = await sql<{ name: string; tenants: string }>`
      select d.name, string_agg(t.tenant_id, ', ' order by t.tenant_id) as tenants
      from datasource d join tenant t on t.datasource_id = d.id and t.is_deleted = 0
      where d.id = any(${ids}::bigint[]) group by d.name order by d.name limit 1`.execute(trx);
    const used = r.rows[0];
    if (used) throw badRequest('datasource.inUse', { name: used.name, tenants: used.tenants });
  },
});
