import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { md5 } from '@sprout/core/auth/password';
import type { Config } from '@sprout/core/config';
import { MemoryQueue } from '@sprout/core/queue';
import { seed } from '@sprout/core/seed';
import { type Database, openDatabase } from '@sprout/core/db';
import { migrateToLatest } from '@sprout/core/db/migrate';
import { createTestDatabase } from '@sprout/core/testing/pg';
import { buildApp } from '../../services/api/src/app';
import { bladeAuth, clientBasic, testConfig } from '../../services/api/src/testing';

/**
 * The one seeded server the security suite shares (server mode on the local PostgreSQL):
 * the demo kindergarten (100001) is the victim; a second kindergarten, created through the
 * API by the platform administrator, is the attacker; the platform administrator (000000)
 * attacks too. Requests go through `app.inject` (no socket, same Fastify pipeline).
 */
export const VICTIM = '100001';
export const PLATFORM = '000000';

export interface Identity {
  name: string;
  tenantId: string;
  account: string;
  password: string;
  accessToken: string;
  refreshToken: string;
  userId: string;
}

export interface SecurityServer {
  t: { database: Database; drop(): Promise<void> };
  engine: 'postgresql' | 'embedded';
  app: FastifyInstance;
  config: Config;
  attackerTenant: string;
  attacker: Identity;
  platform: Identity;
  victim: Identity;
  /** Signs `who` in again (after a logout or a revoked session), through the token endpoint. */
  refresh(who: Identity): Promise<void>;
  close(): Promise<void>;
}

/** A password grant as the web app sends it (md5 of the typed password, Tenant-Id header). */
export function signIn(
  app: FastifyInstance,
  tenantId: string,
  account: string,
  password: string,
  remoteAddress = '127.0.0.1',
): Promise<LightMyRequestResponse> {
  const q = new URLSearchParams({
    tenantId,
    username: account,
    password: md5(password),
    grant_type: 'password',
    scope: 'all',
    type: 'account',
  });
  return app.inject({
    method: 'POST',
    url: `/api/blade-auth/oauth/token?${q}`,
    headers: { ...clientBasic(), 'tenant-id': tenantId },
    remoteAddress,
  });
}

async function identity(
  app: FastifyInstance,
  name: string,
  tenantId: string,
  account: string,
  password: string,
): Promise<Identity> {
  const res = await signIn(app, tenantId, account, password);
  if (res.statusCode !== 200) throw new Error(`sign-in of ${name} failed: ${res.statusCode} ${res.body}`);
  const body = res.json() as { access_token: string; refresh_token: string; user_id: string };
  return {
    name,
    tenantId,
    account,
    password,
    accessToken: body.access_token,
    refreshToken: body.refresh_token,
    userId: String(body.user_id),
  };
}

/**
 * `SECURITY_ENGINE=embedded` runs the same suite on PGlite (one connection: where a request
 * that waits for itself wedges everybody); the default is PostgreSQL, as in production.
 */
async function database(engine: SecurityServer['engine']): Promise<SecurityServer['t']> {
  if (engine === 'postgresql') return createTestDatabase(8);
  const db = await openDatabase({ dataDir: 'memory://' });
  await migrateToLatest(db.db as never);
  return { database: db, drop: () => db.close() };
}

export async function startSecurityServer(): Promise<SecurityServer> {
  const engine = process.env.SECURITY_ENGINE === 'embedded' ? 'embedded' : 'postgresql';
  const t = await database(engine);
  await seed(t.database, { demo: true });
  const config = testConfig();
  const app = await buildApp(config, { database: t.database, queue: new MemoryQueue(), fastify: { logger: false } });
  await app.ready();

  const platform = await identity(app, 'platform administrator', PLATFORM, 'admin', 'admin');
  const created = await app.inject({
    method: 'POST',
    url: '/api/blade-system/tenant/submit',
    headers: bladeAuth(platform.accessToken),
    payload: { tenantName: '攻击者幼儿园 Attacker KG', linkman: 'Mallory', contactNumber: '13900000000' },
  });
  if (created.statusCode !== 200) throw new Error(`creating the attacker tenant failed: ${created.body}`);
  const tenant = created.json().data as { tenantId: string; adminPassword: string };
  const attacker = await identity(app, 'attacker kindergarten admin', tenant.tenantId, 'admin', tenant.adminPassword);
  const victim = await identity(app, 'victim kindergarten admin', VICTIM, 'admin', 'sprout123');

  let signIns = 0;
  async function refresh(who: Identity) {
    // From an address of its own each time: per-address rate limits are not what is tested here.
    signIns++;
    const from = `10.7.${Math.floor(signIns / 250) % 250}.${(signIns % 250) + 1}`;
    const res = await signIn(app, who.tenantId, who.account, who.password, from);
    if (res.statusCode === 200) {
      const body = res.json() as { access_token: string; refresh_token: string };
      who.accessToken = body.access_token;
      who.refreshToken = body.refresh_token;
      return;
    }
    throw new Error(`${who.name} cannot sign in again: ${res.statusCode} ${res.body.slice(0, 300)}`);
  }

  return {
    t,
    engine,
    app,
    config,
    attackerTenant: tenant.tenantId,
    attacker,
    platform,
    victim,
    refresh,
    async close() {
      await app.close();
      await t.drop();
    },
  };
}

/** app.inject that gives up after `ms` (a hang is a finding, not a stuck test). */
export async function injectWithin(
  app: FastifyInstance,
  opts: InjectOptions,
  ms: number,
): Promise<{ res: LightMyRequestResponse | null; ms: number }> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), ms);
  });
  try {
    const res = await Promise.race([app.inject(opts), timeout]);
    return { res, ms: performance.now() - started };
  } finally {
    clearTimeout(timer);
  }
}
