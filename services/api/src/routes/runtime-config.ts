import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { inSystem } from '@sprout/core/db';
import { ok } from '@sprout/core/http/envelope';
import { okSchema } from '../plugins/serialization';

/** What the web app needs to know of the server's settings before anyone signs in. */
const RuntimeConfigSchema = z.object({
  /** TENANT_MODE: the login page asks for a tenant number. */
  tenantMode: z.boolean(),
  /** DEFAULT_TENANT_ID. */
  defaultTenantId: z.string(),
  /** The tenant whose social sources are listed (asked for, the domain's, or the default). */
  tenantId: z.string(),
  /** CAPTCHA_ENABLED: every sign-in needs a captcha. */
  captchaMode: z.boolean(),
  /** ACCESS_TOKEN_TTL, seconds. */
  accessTokenTtl: z.number().int(),
  /** Token age, seconds, at which the web app refreshes it: 5/6 of ACCESS_TOKEN_TTL (3000 for 3600). */
  tokenTime: z.number().int(),
  /** The tenant's enabled social sign-in providers (`oauth/render/{source}`), by creation. */
  social: z.array(z.object({ source: z.string(), name: z.string() })),
});
export type RuntimeConfig = z.output<typeof RuntimeConfigSchema>;

/** Seconds of an access token's life after which the web app refreshes it. */
export const tokenTimeOf = (accessTokenTtl: number) => Math.max(1, Math.floor((accessTokenTtl * 5) / 6));

/**
 * `GET /api/sprout/runtime-config` (public): the server's settings the web app follows —
 * captcha on or off, tenant mode, the token refresh time, and the social sign-in sources
 * of a tenant (`tenantId`, else the tenant of `domain`, else the default). The web app reads
 * it once at start, and again for the social sources when the tenant typed on the login
 * page changes. Nothing secret: a provider's source and display name only.
 */
export async function runtimeConfigRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const config = app.config;

  r.get(
    '/api/sprout/runtime-config',
    {
      config: { public: true },
      schema: {
        tags: ['platform'],
        summary: 'The settings the web app follows: captcha, tenant mode, token refresh time, social sources',
        querystring: z.object({
          tenantId: z
            .string()
            .trim()
            .regex(/^\d{6}$/)
            .optional(),
          domain: z.string().trim().toLowerCase().max(255).optional(),
        }),
        response: { 200: okSchema(RuntimeConfigSchema) },
      },
    },
    async (request, reply) => {
      const q = request.query;
      // No tenant yet: like tenant/info, this runs before sign-in and reads public columns only.
      const found = await inSystem(app.database, async (trx) => {
        let tenantId = config.DEFAULT_TENANT_ID;
        if (config.TENANT_MODE && q.tenantId) tenantId = q.tenantId;
        else if (config.TENANT_MODE && q.domain) {
          const t = await trx
            .selectFrom('tenant')
            .select('tenant_id')
            .where('domain', '=', q.domain)
            .where('is_deleted', '=', 0)
            .executeTakeFirst();
          if (t) tenantId = t.tenant_id;
        }
        const social = await trx
          .selectFrom('oauth_provider')
          .select(['source', 'name'])
          .where('tenant_id', '=', tenantId)
          .where('is_deleted', '=', 0)
          .where('status', '=', 1)
          .orderBy('id')
          .execute();
        return { tenantId, social };
      });
      const data: RuntimeConfig = {
        tenantMode: config.TENANT_MODE,
        defaultTenantId: config.DEFAULT_TENANT_ID,
        tenantId: found.tenantId,
        captchaMode: config.CAPTCHA_ENABLED,
        accessTokenTtl: config.ACCESS_TOKEN_TTL,
        tokenTime: tokenTimeOf(config.ACCESS_TOKEN_TTL),
        social: found.social.map((s) => ({ source: s.source, name: s.name })),
      };
      // Settings change with a restart: never served from a cache.
      reply.header('cache-control', 'no-cache');
      return ok(data, request.lang);
    },
  );
}
