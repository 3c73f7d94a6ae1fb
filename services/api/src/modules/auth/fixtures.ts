import { randomBytes } from 'node:crypto';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { Redis } from 'ioredis';
import { hashPassword, md5 } from '@sprout/core/auth/password';
import type { Config } from '@sprout/core/config';
import { type Database, inSystem, type NewTenant } from '@sprout/core/db';
import { nextId } from '@sprout/core/ids';
import { ROLE_DEFS } from '@sprout/core/permissions/roles';
import { catalogueIndex, roleGrants, writeRoleGrants } from '@sprout/core/permissions/seed';
import { clientBasic } from '../../testing';

/** Test data for sign-in: tenants, users and roles, written as the owner. */
export async function addTenant(database: Database, t: Partial<NewTenant> & { tenant_id: string }) {
  await inSystem(database, (trx) =>
    trx
      .insertInto('tenant')
      .values({ tenant_name: `幼儿园 ${t.tenant_id}`, ...t })
      .execute(),
  );
}

/** A role; a seeded alias (admin, teacher, …) gets that role's grants, as a new tenant's would. */
export async function addRole(database: Database, tenantId: string, alias: string, name = alias) {
  const id = nextId();
  await inSystem(database, async (trx) => {
    await trx.insertInto('role').values({ tenant_id: tenantId, id, role_alias: alias, role_name: name }).execute();
    const def = ROLE_DEFS.find((d) => d.alias === alias);
    if (def) await writeRoleGrants(trx, tenantId, id, roleGrants(def, tenantId, await catalogueIndex(trx)));
  });
  return id;
}

export interface TestUser {
  id: string;
  tenantId: string;
  account: string;
  password: string;
}

/** A user whose password is `password` as typed (stored as argon2id of its md5, like the web app sends). */
export async function addUser(
  database: Database,
  u: {
    tenantId: string;
    account: string;
    password?: string;
    status?: number;
    roleIds?: string[];
    name?: string;
    deptId?: string;
    phone?: string;
  },
): Promise<TestUser> {
  const id = nextId();
  const password = u.password ?? 'sprout123';
  await inSystem(database, async (trx) => {
    await trx
      .insertInto('app_user')
      .values({
        tenant_id: u.tenantId,
        id,
        account: u.account,
        password_hash: await hashPassword(md5(password)),
        name: u.name ?? u.account,
        real_name: u.name ?? u.account,
        status: u.status ?? 1,
        dept_id: u.deptId ?? null,
        phone: u.phone ?? null,
      })
      .execute();
    for (const roleId of u.roleIds ?? [])
      await trx.insertInto('user_role').values({ tenant_id: u.tenantId, user_id: id, role_id: roleId }).execute();
  });
  return { id, tenantId: u.tenantId, account: u.account, password };
}

/** A token call exactly as Saber makes it: parameters in the query string of a POST, Basic client, Tenant-Id. */
export function saberToken(
  app: FastifyInstance,
  params: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  const opts: InjectOptions = {
    method: 'POST',
    url: `/api/blade-auth/oauth/token?${new URLSearchParams(params).toString()}`,
    headers: { ...clientBasic(), ...(params.tenantId ? { 'tenant-id': params.tenantId } : {}), ...headers },
  };
  return app.inject(opts);
}

/** The password grant of the web app's login form (md5 of the typed password). */
export function passwordGrant(
  app: FastifyInstance,
  user: Pick<TestUser, 'tenantId' | 'account' | 'password'>,
  headers: Record<string, string> = {},
) {
  return saberToken(
    app,
    {
      tenantId: user.tenantId,
      username: user.account,
      password: md5(user.password),
      grant_type: 'password',
      scope: 'all',
      type: 'account',
    },
    headers,
  );
}

/** The access token of a password sign-in (as the web app signs in); throws when refused. */
export async function accessToken(app: FastifyInstance, tenantId: string, account: string, password: string) {
  const r = await passwordGrant(app, { tenantId, account, password });
  if (r.statusCode !== 200) throw new Error(`sign-in of ${account}@${tenantId} refused: ${r.body}`);
  return r.json().access_token as string;
}

/** Decodes a JWT's claims without verifying (tests read what the server put in). */
export function claimsOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'));
}

export const uniquePrefix = () => `t${randomBytes(4).toString('hex')}`;

/** Reads a key of the shared store directly (the captcha code a person would read off the image). */
export async function peekKv(config: Config, key: string): Promise<string | null> {
  if (!config.REDIS_URL) throw new Error('peekKv needs REDIS_URL');
  const redis = new Redis(config.REDIS_URL);
  try {
    return await redis.get(`${config.KV_PREFIX}:kv:${key}`);
  } finally {
    redis.disconnect();
  }
}

/** Retries `fn` until it returns true (a broadcast reaching another replica); false after `ms`. */
export async function eventually(fn: () => Promise<boolean>, ms = 3000): Promise<boolean> {
  const end = Date.now() + ms;
  for (;;) {
    if (await fn()) return true;
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 25));
  }
}
