import { randomInt } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { DB } from '@sprout/core/db';
import { AppError, notFound } from '@sprout/core/errors';
import { ok } from '@sprout/core/http/envelope';
import { parseDateTime } from '@sprout/core/time';
import { requirePlatformAdmin } from '../../plugins/auth';
import { presentTenant } from './presenters';

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((v) => (v ? v : null));

/** Tenant add/update body (BladeX `Tenant`): no `tenantId` → add; with one → update. */
export const TenantSubmitSchema = z.object({
  tenantId: z
    .string()
    .regex(/^\d{6}$/)
    .optional(),
  tenantName: z.string().trim().min(1).max(100),
  domain: z
    .string()
    .trim()
    .max(255)
    .regex(/^[a-z0-9.-]*$/i)
    .nullish()
    .transform((v) => (v ? v.toLowerCase() : null)),
  backgroundUrl: optionalText(1000),
  linkman: optionalText(50),
  contactNumber: optionalText(30),
  address: optionalText(255),
  accountNumber: z.coerce.number().int().min(-1).max(1_000_000).default(-1),
  expireTime: z
    .string()
    .trim()
    .nullish()
    .refine((v) => !v || parseDateTime(v, 'UTC') !== undefined, { message: '$validation.dateTime' }),
});
export type TenantSubmit = z.output<typeof TenantSubmitSchema>;

async function newTenantId(trx: Kysely<DB>): Promise<string> {
  for (let i = 0; i < 50; i++) {
    const id = String(randomInt(100000, 1000000));
    const taken = await trx.selectFrom('tenant').select('tenant_id').where('tenant_id', '=', id).executeTakeFirst();
    if (!taken) return id;
  }
  throw new AppError('conflict', 'error.conflict');
}

export async function tenantRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tz = app.config.TIME_ZONE;

  r.post(
    '/api/blade-system/tenant/submit',
    {
      preHandler: requirePlatformAdmin(),
      schema: { tags: ['tenants'], summary: 'Add (no tenantId) or update a tenant', body: TenantSubmitSchema },
    },
    async (request) => {
      const b = request.body;
      const values = {
        tenant_name: b.tenantName,
        domain: b.domain,
        background_url: b.backgroundUrl,
        contact_person: b.linkman,
        contact_number: b.contactNumber,
        address: b.address,
        account_number: b.accountNumber,
        expire_time: b.expireTime ? (parseDateTime(b.expireTime, tz) as Date) : null,
        update_user: request.user?.user_id,
        update_time: new Date(),
      };
      const row = await request.tx(async (trx) => {
        if (b.tenantId) {
          const updated = await trx
            .updateTable('tenant')
            .set(values)
            .where('tenant_id', '=', b.tenantId)
            .where('is_deleted', '=', 0)
            .returningAll()
            .executeTakeFirst();
          if (!updated) throw notFound();
          return updated;
        }
        const tenantId = await newTenantId(trx);
        return trx
          .insertInto('tenant')
          .values({ tenant_id: tenantId, ...values, create_user: request.user?.user_id })
          .returningAll()
          .executeTakeFirstOrThrow();
      });
      return ok(presentTenant(row, tz), request.lang);
    },
  );
}
