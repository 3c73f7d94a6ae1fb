import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { type AccessClaims, signJwt } from '@sprout/core/auth/jwt';
import { type Config, loadConfig } from '@sprout/core/config';
import { type Database, inSystem } from '@sprout/core/db';
import { nextId } from '@sprout/core/ids';
import { catalogueIndex, seedTenantRoles } from '@sprout/core/permissions/seed';
import { MemoryQueue } from '@sprout/core/queue';
import type { JobQueue } from '@sprout/core/queue/types';
import { buildApp } from './app';

/**
 * A validated config for tests; never touches ./data. Sign-in limits and rate limits are
 * out of the way (tests sign in and call the token endpoint many times a minute from one
 * address); the tests of those limits set them.
 */
export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    JWT_SECRET: `test-${randomBytes(24).toString('hex')}`,
    DATA_DIR: '/tmp/sprout-test-data',
    LOG_LEVEL: 'silent',
    WEB_DIST: '/nonexistent',
    RATE_LIMIT_PER_MINUTE: '1000000',
    LOGIN_CAPTCHA_AFTER_FAILURES: '1000',
    LOGIN_MAX_FAILURES: '1000',
    LOGIN_MAX_FAILURES_PER_IP: '100000',
    ...env,
  });
}

export async function testApp(
  database: Database,
  opts: { config?: Config; queue?: JobQueue; serializer?: 'schema' | 'json' } = {},
) {
  const config = opts.config ?? testConfig();
  const queue = opts.queue ?? new MemoryQueue();
  const app = await buildApp(config, { database, queue, fastify: { logger: false }, serializer: opts.serializer });
  await app.ready();
  return { app, config, queue };
}

/** Signs an access token the way sign-in does (for a session that was never revoked). */
export function tokenFor(config: Config, claims: Partial<AccessClaims> & { tenant_id: string; user_id: string }) {
  const now = Math.floor(Date.now() / 1000);
  return signJwt(
    {
      sid: nextId(),
      role_ids: [],
      roles: [],
      dept_id: null,
      client_id: 'saber',
      iat: now,
      exp: now + 3600,
      ...claims,
    },
    config.JWT_SECRET,
  );
}

/** The seeded client (`seed()`): saber / saber_secret. */
export const SABER_CLIENT = { id: 'saber', secret: 'saber_secret' } as const;

/** `Authorization: Basic base64(client_id:client_secret)`, as every Saber call carries it. */
export const clientBasic = (id: string = SABER_CLIENT.id, secret: string = SABER_CLIENT.secret) => ({
  authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`,
});

/** The headers of a signed-in Saber call: client credentials and `Blade-Auth: bearer <token>`. */
export const bladeAuth = (token: string) => ({ ...clientBasic(), 'blade-auth': `bearer ${token}` });

export type { FastifyInstance };

/**
 * A user of `tenantId` holding the seeded role `roleAlias` (the tenant gets the seeded roles
 * if it has none), and a token for them: what route checks and data scopes decide on.
 * Needs `seed()` to have written the catalogue.
 */
export async function userWithRole(
  database: Database,
  config: Config,
  tenantId: string,
  roleAlias: string,
  extra: { account?: string; deptId?: string | null; createTime?: Date } = {},
) {
  const id = nextId();
  await inSystem(database, async (trx) => {
    const { roleIds } = await seedTenantRoles(trx, tenantId, await catalogueIndex(trx));
    const roleId = roleIds.get(roleAlias);
    if (!roleId) throw new Error(`no seeded role ${roleAlias} in ${tenantId}`);
    await trx
      .insertInto('app_user')
      .values({
        tenant_id: tenantId,
        id,
        account: extra.account ?? `${roleAlias}-${id}`,
        password_hash: 'x',
        real_name: roleAlias,
        dept_id: extra.deptId ?? null,
        ...(extra.createTime ? { create_time: extra.createTime } : {}),
      })
      .execute();
    await trx.insertInto('user_role').values({ tenant_id: tenantId, user_id: id, role_id: roleId }).execute();
  });
  return { id, token: tokenFor(config, { tenant_id: tenantId, user_id: id, roles: [roleAlias] }) };
}

/** The fields a 400 names, sorted (a reply's parsed body, or an inject reply). */
export const fieldNames = (reply: { fields?: { field: string }[] } | { json(): { fields: { field: string }[] } }) =>
  ('json' in reply ? reply.json().fields : (reply.fields ?? [])).map((f) => f.field).sort();
