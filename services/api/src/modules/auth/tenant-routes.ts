import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { type ZodType, z } from 'zod';
import { inSystem } from '@sprout/core/db';
import { ok } from '@sprout/core/http/envelope';
import { okSchema } from '../../plugins/serialization';
import { header } from './params';

const DomainSchema = z.string().trim().toLowerCase().max(255).optional();

/** What the login page learns of a tenant: its number, name, domain and background (`{}` when none). */
const TenantInfoSchema = z
  .object({ tenantId: z.string(), tenantName: z.string(), domain: z.string().nullable(), backgroundUrl: z.string() })
  .partial();

/** A public call of the login page: its query and its data. */
const publicCall = <Q extends ZodType, D extends ZodType>(summary: string, querystring: Q, data: D) => ({
  config: { public: true },
  schema: { tags: ['tenants'], summary, querystring, response: { 200: okSchema(data) } },
});

/** Public calls of the login page: which tenant a domain belongs to, and its background. */
export async function tenantPublicRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  const find = (by: { domain?: string; tenantId?: string }) =>
    // No tenant yet: these run before sign-in, reading only the public columns.
    inSystem(app.database, (trx) => {
      let q = trx
        .selectFrom('tenant')
        .select(['tenant_id', 'tenant_name', 'domain', 'background_url'])
        .where('is_deleted', '=', 0);
      if (by.domain) q = q.where('domain', '=', by.domain);
      else if (by.tenantId) q = q.where('tenant_id', '=', by.tenantId);
      else return Promise.resolve(undefined);
      return q.executeTakeFirst();
    });

  r.get(
    '/api/blade-system/tenant/info',
    publicCall(
      'The tenant of a domain (data.tenantId); empty when none',
      z.object({ domain: DomainSchema }),
      TenantInfoSchema,
    ),
    async (request) => {
      const t = request.query.domain ? await find({ domain: request.query.domain }) : undefined;
      return ok(
        t
          ? {
              tenantId: t.tenant_id,
              tenantName: t.tenant_name,
              domain: t.domain,
              backgroundUrl: t.background_url ?? '',
            }
          : {},
        request.lang,
      );
    },
  );

  r.get(
    '/api/blade-system/tenant/getBackgroundUrl',
    publicCall(
      'The login background of a tenant (by domain, tenantId or Tenant-Id); empty when none',
      z.object({ domain: DomainSchema, tenantId: z.string().trim().max(12).optional() }),
      z.string(),
    ),
    async (request) => {
      const q = request.query;
      const tenantId = q.tenantId || header(request, 'tenant-id');
      const t = await find(q.domain ? { domain: q.domain } : { tenantId });
      return ok(t?.background_url ?? '', request.lang);
    },
  );
}
