import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { readInTenant } from '@sprout/core/db';
import { ok } from '@sprout/core/http/envelope';
import { okSchema } from '../../plugins/serialization';
import { callerOf } from './engine';

/** A family whose pages schools lay out differently: which tenant parameter picks the layout, and its values. */
export interface TenantLayout<L extends string> {
  /** `GET <url>` answers `{layout}`. */
  url: string;
  tag: string;
  summary: string;
  /** The tenant parameter (`tenant_param.param_key`). */
  param: string;
  layouts: readonly [L, ...L[]];
}

/**
 * `GET …/layout`: the tenant's layout of a family's pages (the day plans' TianYuan/TongXing,
 * the theme reviews' two schools) — the parameter's value when it names a layout, else the
 * first layout. Any signed-in user of the tenant (the pages it picks are scoped themselves).
 */
export function tenantLayoutRoute<L extends string>(app: FastifyInstance, t: TenantLayout<L>) {
  const answer = z.object({ layout: z.enum(t.layouts as unknown as [L, ...L[]]) });
  app
    .withTypeProvider<ZodTypeProvider>()
    .get(
      t.url,
      { schema: { tags: [t.tag], summary: t.summary, response: { 200: okSchema(answer) } } },
      async (request) => {
        const caller = await callerOf(request);
        const rows = await readInTenant<{ param_value: string }>(
          app.database,
          caller.ctx,
          app.database.db
            .selectFrom('tenant_param')
            .select('param_value')
            .where('tenant_id', '=', caller.ctx.tenantId)
            .where('param_key', '=', t.param)
            .compile(),
        );
        const v = rows[0]?.param_value ?? '';
        const layout = (t.layouts as readonly string[]).includes(v) ? (v as L) : t.layouts[0];
        return ok({ layout }, request.lang);
      },
    );
}
