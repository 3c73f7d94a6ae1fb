import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { PLATFORM_TENANT_ID } from '@sprout/core/permissions/constants';
import { permissionsOf } from '../../plugins/auth';
import { text } from '../../http/answer';
import { readIn } from '../../http/query';
import { routesOf, tzOf } from './shapes';
import { tenantList } from './tenant-repo';

/** A tenant in a select (BladeX `tenant/select`: Saber's tenant columns read `tenantId` and `tenantName`). */
const TenantOptionSchema = z.object({ id: text, tenantId: text, tenantName: text });

/** The tenant list's route, as the API scopes name it: who may call it may pick any tenant. */
const TENANT_LIST = 'GET /api/blade-system/tenant/list';

/**
 * The selects Saber fills its forms' dictionaries from as a screen opens (user, dept, post
 * and role forms have a tenant column), so any signed-in user may call them: each answers
 * only what the caller may see anyway.
 */
export async function selectRoutes(app: FastifyInstance) {
  const route = routesOf(app, 'tenants');

  route.get('/api/blade-system/tenant/select', {
    config: { access: 'authenticated' },
    summary:
      'Tenants to pick from (selects): every live tenant for a platform caller who may list tenants, else the caller’s own',
    description: 'BladeX answers `[{id, tenantId, tenantName, …}]`; Sprout answers those three fields.',
    query: z.object({ tenantName: z.string().trim().max(100).optional() }),
    data: z.array(TenantOptionSchema),
    handler: async (request, q) => {
      const perms = await permissionsOf(request);
      const rows = await readIn(request, (db, ctx) => {
        const all = tenantList(db, { tenantName: q.tenantName }, tzOf(request));
        const everyTenant = ctx.tenantId === PLATFORM_TENANT_ID && perms.allows(TENANT_LIST);
        return everyTenant ? all : all.where('tenant_id', '=', ctx.tenantId);
      });
      return rows.map((t) => ({ id: t.tenant_id, tenantId: t.tenant_id, tenantName: t.tenant_name }));
    },
  });
}
