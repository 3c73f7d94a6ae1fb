import { randomInt } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { hashPassword, md5 } from '@sprout/core/auth/password';
import type { Tenant } from '@sprout/core/db';
import { badRequest, forbidden } from '@sprout/core/errors';
import { findPage, PageQuerySchema } from '@sprout/core/http/paging';
import { PLATFORM_TENANT_ID } from '@sprout/core/permissions/constants';
import { seedPosts } from '@sprout/core/permissions/demo';
import { catalogueIndex, seedTenantRoles } from '@sprout/core/permissions/seed';
import { seedTenantRows } from '@sprout/core/tenant-seed';
import { formatDateTime, parseDateTime } from '@sprout/core/time';
import { pageSchema } from '../../plugins/serialization';
import { tenantOf } from '../../plugins/context';
import { int, text, textOrNull, time } from '../../http/answer';
import { refuseMissing, refuseUnknownIds } from '../../http/known';
import { optionalText } from '../../http/params';
import { found } from '../../http/routes';
import { routesOf } from './shapes';
import {
  addTenantAdmin,
  asTenant,
  findTenant,
  insertTenant,
  liveTenantIds,
  revokeTenantSessions,
  TenantFilterSchema,
  tenantList,
  updateTenant,
  updateTenants,
} from './tenant-repo';

/** A tenant as the tenant screen shows it. */
export const TenantSchema = z.object({
  id: text,
  tenantId: text,
  tenantName: text,
  domain: textOrNull,
  backgroundUrl: textOrNull,
  linkman: textOrNull,
  contactNumber: textOrNull,
  address: textOrNull,
  accountNumber: int,
  expireTime: time,
  datasourceId: text,
  status: int,
  createTime: time,
});

/** What leaves the server for a tenant: camelCase, ids as strings, times formatted. */
export function presentTenant(t: Tenant, tz: string): z.output<typeof TenantSchema> {
  return {
    id: t.tenant_id,
    tenantId: t.tenant_id,
    tenantName: t.tenant_name,
    domain: t.domain,
    backgroundUrl: t.background_url,
    linkman: t.contact_person,
    contactNumber: t.contact_number,
    address: t.address,
    accountNumber: t.account_number,
    expireTime: formatDateTime(t.expire_time, tz),
    datasourceId: t.datasource_id === null ? '' : String(t.datasource_id),
    status: t.status,
    createTime: formatDateTime(t.create_time, tz),
  };
}

/** A tenant just added: its admin account and password, shown once. */
const SavedTenantSchema = TenantSchema.extend({
  adminAccount: z.string().optional(),
  adminPassword: z.string().optional(),
});

const TenantIdSchema = z.string().regex(/^\d{6}$/, '$validation.id');
const DateTimeText = z
  .string()
  .trim()
  .nullish()
  .refine((v) => !v || parseDateTime(v, 'UTC') !== undefined, { message: '$validation.dateTime' });

/** Tenant add/update body (BladeX `Tenant`): no `tenantId` → add; with one → update. */
export const TenantSubmitSchema = z.object({
  tenantId: TenantIdSchema.optional(),
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
  expireTime: DateTimeText,
});

/** Tenant licence (BladeX tenant/setting): ids plus the account quota and expiry. */
export const TenantSettingSchema = z.object({
  ids: z
    .string()
    .trim()
    .transform((v) => [
      ...new Set(
        v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      ),
    ])
    .pipe(z.array(TenantIdSchema).min(1, '$validation.required').max(1000)),
  accountNumber: z.coerce.number().int().min(-1).max(1_000_000).optional(),
  expireTime: DateTimeText,
});

const PASSWORD_CHARS = 'abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';

const platformOnly = (request: FastifyRequest) => {
  if (tenantOf(request).tenantId !== PLATFORM_TENANT_ID) throw forbidden();
};

/**
 * Tenants: list, detail, add and update (a new tenant gets the seeded roles, the standard
 * posts, a root department and an `admin` account whose password is shown once), remove,
 * licence settings. Platform tenant only (API scopes of the
 * platform-only tenant menu, and row-level security underneath).
 */
export async function tenantRoutes(app: FastifyInstance) {
  // Hand-written, not defineResource: keyed by tenantId and platform-only, an add seeds the tenant (roles, posts, dept, admin), a remove cascades sessions; setting and datasource besides.
  const route = routesOf(app, 'tenants');
  const tz = app.config.TIME_ZONE;
  // Every route here, before its handler reads any input of its own (merged parameters).
  app.addHook('preHandler', async (request) => platformOnly(request));

  route.get('/api/blade-system/tenant/list', {
    summary: 'Tenants (the platform tenant sees all), paged',
    query: PageQuerySchema.extend(TenantFilterSchema.shape),
    data: pageSchema(TenantSchema),
    handler: (request, q) =>
      findPage(app.database, tenantOf(request), tenantList(app.database.db, q, tz), q, (t) => presentTenant(t, tz)),
  });

  route.get('/api/blade-system/tenant/detail', {
    summary: 'One tenant (by tenantId or id)',
    query: z.object({ tenantId: TenantIdSchema.optional(), id: TenantIdSchema.optional() }),
    data: TenantSchema,
    handler: async (request, q) => {
      const id = found(q.tenantId ?? q.id);
      return presentTenant(found(await request.tx((trx) => findTenant(trx, id))), tz);
    },
  });

  route.post('/api/blade-system/tenant/submit', {
    summary:
      'Adds (no tenantId) or updates a tenant; a new one starts with roles, posts, a root dept, an admin account and every context’s tenant rows (lookups)',
    body: TenantSubmitSchema,
    data: SavedTenantSchema,
    done: (b) => (b.tenantId ? 'system.updated' : 'system.added'),
    handler: async (request, b) => {
      const values = {
        tenant_name: b.tenantName,
        domain: b.domain,
        background_url: b.backgroundUrl,
        contact_person: b.linkman,
        contact_number: b.contactNumber,
        address: b.address,
        account_number: b.accountNumber,
        expire_time: b.expireTime ? (parseDateTime(b.expireTime, tz) as Date) : null,
        update_user: request.user?.user_id ?? null,
        update_time: new Date(),
      };
      const adminPassword = b.tenantId
        ? undefined
        : Array.from({ length: 12 }, () => PASSWORD_CHARS[randomInt(PASSWORD_CHARS.length)]).join('');
      const adminHash = adminPassword ? await hashPassword(md5(adminPassword)) : undefined;
      const row = await request.tx(async (trx) => {
        if (b.tenantId) return found(await updateTenant(trx, b.tenantId, values));
        const tenant = await insertTenant(trx, values);
        const index = await catalogueIndex(trx);
        // The new tenant's own rows are written under its own tenant setting (row-level security).
        await asTenant(trx, tenant.tenant_id, PLATFORM_TENANT_ID, async () => {
          const { roleIds } = await seedTenantRoles(trx, tenant.tenant_id, index);
          await seedPosts(trx, tenant.tenant_id);
          await addTenantAdmin(
            trx,
            tenant.tenant_id,
            b.tenantName,
            adminHash as string,
            roleIds.get('admin') as string,
          );
          // What the contexts give every tenant (ServerContext.tenantSeed).
          await seedTenantRows(trx, tenant.tenant_id);
        });
        return tenant;
      });
      const out = presentTenant(row, tz);
      return adminPassword ? { ...out, adminAccount: 'admin', adminPassword } : out;
    },
  });

  route.post('/api/blade-system/tenant/remove', {
    summary: 'Deletes tenants (ids; never the platform tenant) and signs their users out',
    query: z.object({ ids: z.string().trim().max(7000) }),
    data: z.null(),
    done: 'system.removed',
    handler: async (request, q) => {
      const ids = [
        ...new Set(
          q.ids
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean),
        ),
      ];
      if (!ids.length || ids.some((id) => !/^\d{6}$/.test(id))) throw badRequest('validation.ids');
      if (ids.includes(PLATFORM_TENANT_ID)) throw badRequest('system.platformTenant');
      const sids = await request.tx(async (trx) => {
        refuseUnknownIds(ids, await liveTenantIds(trx, ids, true));
        await updateTenants(trx, ids, request.user?.user_id ?? null, { is_deleted: 1 });
        const out: string[] = [];
        for (const id of ids)
          out.push(...(await asTenant(trx, id, PLATFORM_TENANT_ID, () => revokeTenantSessions(trx, id))));
        return out;
      });
      await app.auth.revocations.announce(sids);
      for (const id of ids) await app.permissions.invalidateTenant(id);
      return null;
    },
  });

  route.post('/api/blade-system/tenant/setting', {
    summary: 'Licence of tenants: ids, accountNumber (−1 no limit), expireTime',
    description: 'Query string (Saber) or body.',
    merged: TenantSettingSchema,
    data: z.null(),
    done: 'system.updated',
    handler: async (request, s) => {
      await request.tx(async (trx) => {
        refuseMissing(s.ids, await liveTenantIds(trx, s.ids), 'system.tenantNotFound', 'id');
        await updateTenants(trx, s.ids, request.user?.user_id ?? null, {
          ...(s.accountNumber !== undefined ? { account_number: s.accountNumber } : {}),
          ...(s.expireTime !== undefined
            ? { expire_time: s.expireTime ? (parseDateTime(s.expireTime, tz) as Date) : null }
            : {}),
        });
      });
      return null;
    },
  });
  // The data-source binding (/blade-system/tenant/datasource) is the datasource context's: it moves the tenant's data.
}
