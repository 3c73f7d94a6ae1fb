import { randomInt } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { type Kysely, sql } from 'kysely';
import { z } from 'zod';
import { hashPassword, md5 } from '@sprout/core/auth/password';
import { containsPattern, type DB, type Tenant } from '@sprout/core/db';
import { AppError, badRequest, forbidden, notFound } from '@sprout/core/errors';
import { ok } from '@sprout/core/http/envelope';
import { findPage, PageQuerySchema } from '@sprout/core/http/paging';
import { nextId } from '@sprout/core/ids';
import { PLATFORM_TENANT_ID } from '@sprout/core/permissions/constants';
import { seedPosts } from '@sprout/core/permissions/demo';
import { catalogueIndex, seedTenantRoles } from '@sprout/core/permissions/seed';
import { formatDateTime, parseDateTime } from '@sprout/core/time';
import { tenantOf } from '../../plugins/context';
import { refuseUnknownIds } from '../../http/known';
import { input, NullableIdSchema, optionalText } from '../../http/params';
import { createTimeRange } from '../../http/query';

/** What leaves the server for a tenant: camelCase, ids as strings, times formatted. */
export function presentTenant(t: Tenant, tz: string) {
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

async function newTenantId(trx: Kysely<DB>): Promise<string> {
  for (let i = 0; i < 50; i++) {
    const id = String(randomInt(100000, 1000000));
    const taken = await trx.selectFrom('tenant').select('tenant_id').where('tenant_id', '=', id).executeTakeFirst();
    if (!taken) return id;
  }
  throw new AppError('conflict', 'error.conflict');
}

/** Runs `fn` with the transaction's tenant setting switched to `tenantId` (row-level security), then back. */
async function asTenant<T>(trx: Kysely<DB>, tenantId: string, back: string, fn: () => Promise<T>): Promise<T> {
  await sql`select set_config('app.tenant_id', ${tenantId}, true)`.execute(trx);
  const out = await fn();
  await sql`select set_config('app.tenant_id', ${back}, true)`.execute(trx);
  return out;
}

const PASSWORD_CHARS = 'abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/**
 * Tenants: list, detail, add and update (a new tenant gets the seeded roles, the standard
 * posts, a root department and an `admin` account whose password is shown once), remove,
 * licence settings and data-source binding. Platform tenant only (API scopes of the
 * platform-only tenant menu, and row-level security underneath).
 */
export async function tenantRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tz = app.config.TIME_ZONE;
  const platformOnly = (request: Parameters<typeof tenantOf>[0]) => {
    if (tenantOf(request).tenantId !== PLATFORM_TENANT_ID) throw forbidden();
  };

  r.get(
    '/api/blade-system/tenant/list',
    {
      schema: {
        tags: ['tenants'],
        summary: 'Tenants (the platform tenant sees all), paged',
        querystring: PageQuerySchema.extend({
          tenantId: z.string().trim().max(12).optional(),
          tenantName: z.string().trim().max(100).optional(),
        }),
      },
    },
    async (request) => {
      platformOnly(request);
      const q = request.query;
      let base = app.database.db.selectFrom('tenant').where('is_deleted', '=', 0);
      if (q.tenantId) base = base.where('tenant_id', 'like', containsPattern(q.tenantId));
      if (q.tenantName) base = base.where('tenant_name', 'like', containsPattern(q.tenantName));
      const qb = createTimeRange(base, q, tz).selectAll().orderBy('tenant_id');
      const page = await findPage(app.database, tenantOf(request), qb, q, (t) => presentTenant(t, tz));
      return ok(page, request.lang);
    },
  );

  r.get(
    '/api/blade-system/tenant/detail',
    {
      schema: {
        tags: ['tenants'],
        summary: 'One tenant (by tenantId or id)',
        querystring: z.object({ tenantId: TenantIdSchema.optional(), id: TenantIdSchema.optional() }),
      },
    },
    async (request) => {
      platformOnly(request);
      const id = request.query.tenantId ?? request.query.id;
      if (!id) throw notFound();
      const t = await request.tx((trx) =>
        trx.selectFrom('tenant').selectAll().where('tenant_id', '=', id).where('is_deleted', '=', 0).executeTakeFirst(),
      );
      if (!t) throw notFound();
      return ok(presentTenant(t, tz), request.lang);
    },
  );

  r.post(
    '/api/blade-system/tenant/submit',
    {
      schema: {
        tags: ['tenants'],
        summary:
          'Adds (no tenantId) or updates a tenant; a new one starts with roles, posts, a root dept and an admin account',
        body: TenantSubmitSchema,
      },
    },
    async (request) => {
      platformOnly(request);
      const b = request.body;
      const me = request.user?.user_id ?? null;
      const values = {
        tenant_name: b.tenantName,
        domain: b.domain,
        background_url: b.backgroundUrl,
        contact_person: b.linkman,
        contact_number: b.contactNumber,
        address: b.address,
        account_number: b.accountNumber,
        expire_time: b.expireTime ? (parseDateTime(b.expireTime, tz) as Date) : null,
        update_user: me,
        update_time: new Date(),
      };
      const adminPassword = b.tenantId
        ? undefined
        : Array.from({ length: 12 }, () => PASSWORD_CHARS[randomInt(PASSWORD_CHARS.length)]).join('');
      const adminHash = adminPassword ? await hashPassword(md5(adminPassword)) : undefined;
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
        const tenant = await trx
          .insertInto('tenant')
          .values({ tenant_id: tenantId, ...values, create_user: me })
          .returningAll()
          .executeTakeFirstOrThrow();
        const index = await catalogueIndex(trx);
        // The new tenant's own rows are written under its own tenant setting (row-level security).
        await asTenant(trx, tenantId, PLATFORM_TENANT_ID, async () => {
          const { roleIds } = await seedTenantRoles(trx, tenantId, index);
          await seedPosts(trx, tenantId);
          const deptId = nextId();
          await trx
            .insertInto('dept')
            .values({
              tenant_id: tenantId,
              id: deptId,
              ancestors: [],
              dept_category: 1,
              dept_name: b.tenantName,
              full_name: b.tenantName,
              sort: 1,
            })
            .execute();
          const adminId = nextId();
          await trx
            .insertInto('app_user')
            .values({
              tenant_id: tenantId,
              id: adminId,
              account: 'admin',
              password_hash: adminHash as string,
              name: '管理员',
              real_name: '管理员',
              dept_id: deptId,
            })
            .execute();
          await trx
            .insertInto('user_role')
            .values({ tenant_id: tenantId, user_id: adminId, role_id: roleIds.get('admin') as string })
            .execute();
        });
        return tenant;
      });
      const out = presentTenant(row, tz);
      return ok(
        adminPassword ? { ...out, adminAccount: 'admin', adminPassword } : out,
        request.lang,
        b.tenantId ? 'system.updated' : 'system.added',
      );
    },
  );

  r.post(
    '/api/blade-system/tenant/remove',
    {
      schema: {
        tags: ['tenants'],
        summary: 'Deletes tenants (ids; never the platform tenant) and signs their users out',
        querystring: z.object({ ids: z.string().trim().max(7000) }),
      },
    },
    async (request) => {
      platformOnly(request);
      const ids = [
        ...new Set(
          request.query.ids
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean),
        ),
      ];
      if (!ids.length || ids.some((id) => !/^\d{6}$/.test(id))) throw badRequest('validation.ids');
      if (ids.includes(PLATFORM_TENANT_ID)) throw badRequest('system.platformTenant');
      const sids = await request.tx(async (trx) => {
        const found = await trx
          .selectFrom('tenant')
          .select('tenant_id')
          .where('tenant_id', 'in', ids)
          .where('is_deleted', '=', 0)
          .forUpdate()
          .execute();
        refuseUnknownIds(
          ids,
          found.map((t) => t.tenant_id),
        );
        await trx
          .updateTable('tenant')
          .set({ is_deleted: 1, update_user: request.user?.user_id ?? null, update_time: new Date() })
          .where('tenant_id', 'in', ids)
          .execute();
        const out: string[] = [];
        for (const id of ids) {
          const rows = await asTenant(trx, id, PLATFORM_TENANT_ID, () =>
            trx
              .updateTable('auth_session')
              .set({ revoke_time: new Date(), revoke_reason: 'tenant_removed' })
              .where('tenant_id', '=', id)
              .where('revoke_time', 'is', null)
              .returning('id')
              .execute(),
          );
          out.push(...rows.map((s) => String(s.id)));
        }
        return out;
      });
      await app.auth.revocations.announce(sids);
      for (const id of ids) await app.permissions.invalidateTenant(id);
      return ok(null, request.lang, 'system.removed');
    },
  );

  r.post(
    '/api/blade-system/tenant/setting',
    {
      schema: {
        tags: ['tenants'],
        summary: 'Licence of tenants: ids, accountNumber (−1 no limit), expireTime',
        description: 'Query string (Saber) or body.',
      },
    },
    async (request) => {
      platformOnly(request);
      const s = input(request, TenantSettingSchema);
      await request.tx(async (trx) => {
        const found = await trx
          .selectFrom('tenant')
          .select('tenant_id')
          .where('tenant_id', 'in', s.ids)
          .where('is_deleted', '=', 0)
          .execute();
        const have = new Set(found.map((t) => t.tenant_id));
        const missing = s.ids.filter((id) => !have.has(id));
        if (missing.length) throw badRequest('system.tenantNotFound', { id: missing.join(',') });
        await trx
          .updateTable('tenant')
          .set({
            ...(s.accountNumber !== undefined ? { account_number: s.accountNumber } : {}),
            ...(s.expireTime !== undefined
              ? { expire_time: s.expireTime ? (parseDateTime(s.expireTime, tz) as Date) : null }
              : {}),
            update_user: request.user?.user_id ?? null,
            update_time: new Date(),
          })
          .where('tenant_id', 'in', s.ids)
          .execute();
      });
      return ok(null, request.lang, 'system.updated');
    },
  );

  r.post(
    '/api/blade-system/tenant/datasource',
    {
      schema: {
        tags: ['tenants'],
        summary: 'Binds a tenant to a data source (tenantId, datasourceId; empty unbinds)',
        description:
          'Stored only: the data-source family (/blade-develop/datasource) and per-tenant databases come later.',
      },
    },
    async (request) => {
      platformOnly(request);
      const b = input(
        request,
        z.object({
          tenantId: TenantIdSchema,
          datasourceId: NullableIdSchema,
        }),
      );
      const updated = await request.tx((trx) =>
        trx
          .updateTable('tenant')
          .set({ datasource_id: b.datasourceId, update_user: request.user?.user_id ?? null, update_time: new Date() })
          .where('tenant_id', '=', b.tenantId)
          .where('is_deleted', '=', 0)
          .executeTakeFirst(),
      );
      if (!updated.numUpdatedRows) throw badRequest('system.tenantNotFound', { id: b.tenantId });
      return ok(null, request.lang, 'system.updated');
    },
  );
}
