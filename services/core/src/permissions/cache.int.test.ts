import '@sprout/api/contexts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, inSystem, inTenant, openDatabase } from '../db';
import { migrateToLatest } from '../db/migrate';
import { nextId } from '../ids';
import { MemoryStore } from '../kv';
import { seed } from '../seed';
import { createTestDatabase, type TestDatabase } from '../testing/pg';
import { PermissionCache } from './cache';
import { catalogueIndex, seedTenantRoles } from './seed';

/**
 * Permission-cache invalidation that survives a crash between the commit and the broadcast:
 * the grant change's own transaction bumps the version (trigger), so a replica that never
 * hears about it still drops its copy within `localTtlMs` — and one without a local copy
 * drops the shared store's at once.
 */
describe.each([
  ['PostgreSQL', 'pg'],
  ['PGlite', 'pglite'],
] as const)('permission cache on %s', (_engine, engine) => {
  let t: TestDatabase | undefined;
  let database: Database;
  const T = '100001';
  let userId: string;
  let roleId: string;
  const AUDIT = 'GET /api/audit/streams';
  const LOCAL_TTL = 60_000;

  beforeAll(async () => {
    if (engine === 'pg') {
      t = await createTestDatabase();
      database = t.database;
    } else {
      database = await openDatabase({ dataDir: 'memory://' });
      await migrateToLatest(database.db as never);
    }
    await seed(database, { demo: false });
    userId = nextId();
    await inSystem(database, async (trx) => {
      const { roleIds } = await seedTenantRoles(trx, T, await catalogueIndex(trx));
      roleId = roleIds.get('auditor') as string;
      await trx
        .insertInto('app_user')
        .values({ tenant_id: T, id: userId, account: `aud-${userId}`, password_hash: 'x' })
        .execute();
      await trx.insertInto('user_role').values({ tenant_id: T, user_id: userId, role_id: roleId }).execute();
    });
  });
  afterAll(async () => {
    if (t) await t.drop();
    else await database?.close();
  });

  /** Two replicas sharing one store, each with a clock the test moves. */
  async function replicas() {
    const kv = new MemoryStore();
    let now = 1_000_000;
    const clock = { advance: (ms: number) => (now += ms) };
    const open = async () => {
      const c = new PermissionCache(database, kv, { localTtlMs: LOCAL_TTL, now: () => now, pollMs: 0 });
      await c.start();
      return c;
    };
    return { a: await open(), b: await open(), clock };
  }

  /** Revokes (or restores) the auditor's audit screen and its API scopes, committed, with no broadcast. */
  async function setAuditGrant(granted: boolean) {
    await inTenant(database, { tenantId: T, userId: '1' }, async (trx) => {
      const index = await catalogueIndex(trx);
      const menuId = index.menuIds.get('audit') as string;
      const apiIds = index.apiScopeIds.get('audit') ?? [];
      if (granted) {
        await trx.insertInto('role_menu').values({ tenant_id: T, role_id: roleId, menu_id: menuId }).execute();
        await trx
          .insertInto('role_scope')
          .values(apiIds.map((scope_id) => ({ tenant_id: T, role_id: roleId, scope_category: 2, scope_id })))
          .execute();
      } else {
        await trx.deleteFrom('role_menu').where('role_id', '=', roleId).where('menu_id', '=', menuId).execute();
        await trx
          .deleteFrom('role_scope')
          .where('role_id', '=', roleId)
          .where('scope_id', 'in', apiIds)
          .where('scope_category', '=', 2)
          .execute();
      }
    });
  }

  it('a change committed without any broadcast (a crash in between) is seen within localTtlMs, at once by a replica without a local copy', async () => {
    const { a, b, clock } = await replicas();
    try {
      expect((await a.get(T, userId)).allows(AUDIT)).toBe(true);
      await setAuditGrant(false); // committed; the process "crashed" before invalidateTenant
      // Replica b has no local copy: the shared store's copy is older than the database's version.
      expect((await b.get(T, userId)).allows(AUDIT)).toBe(false);
      // Replica a answers from memory until its copy is localTtlMs old, then re-checks.
      clock.advance(LOCAL_TTL);
      expect((await a.get(T, userId)).allows(AUDIT)).toBe(false);
    } finally {
      await a.stop();
      await b.stop();
      await setAuditGrant(true);
    }
  });

  it('the periodic version check tells live connections about a change whose broadcast never came', async () => {
    const { a, b } = await replicas();
    const heard: Array<{ tenantId: string; userId?: string }> = [];
    a.onChange((c) => heard.push(c));
    try {
      expect((await a.get(T, userId)).allows(AUDIT)).toBe(true);
      expect(await a.poll()).toEqual([]);
      await setAuditGrant(false); // committed, never broadcast
      expect(await a.poll()).toEqual([{ tenantId: T }]);
      expect(heard).toEqual([{ tenantId: T }]);
      expect(a.cached(T, userId)).toBeUndefined();
      expect((await a.get(T, userId)).allows(AUDIT)).toBe(false);
    } finally {
      await a.stop();
      await b.stop();
      await setAuditGrant(true);
    }
  });

  it('with the broadcast, every replica drops its copy before the next request', async () => {
    const { a, b } = await replicas();
    try {
      expect((await a.get(T, userId)).allows(AUDIT)).toBe(true);
      expect((await b.get(T, userId)).allows(AUDIT)).toBe(true);
      await setAuditGrant(false);
      await a.invalidateTenant(T);
      expect(a.cached(T, userId)).toBeUndefined();
      expect(b.cached(T, userId)).toBeUndefined();
      expect((await b.get(T, userId)).allows(AUDIT)).toBe(false);
    } finally {
      await a.stop();
      await b.stop();
      await setAuditGrant(true);
    }
  });

  it('bumps the version in the changing transaction for grant changes only, not for a sign-in or a profile edit', async () => {
    const version = async (scope: string) =>
      Number(
        (
          await sql<{
            v: string | null;
          }>`select (select version::text from permission_version where scope = ${scope}) as v`.execute(database.db)
        ).rows[0]?.v ?? 0,
      );
    const before = await version(T);
    await inTenant(database, { tenantId: T, userId: '1' }, (trx) =>
      trx
        .updateTable('app_user')
        .set({ real_name: '新名字', password_hash: 'y', update_time: new Date() })
        .where('id', '=', userId)
        .execute(),
    );
    expect(await version(T)).toBe(before);
    await inTenant(database, { tenantId: T, userId: '1' }, (trx) =>
      trx.updateTable('app_user').set({ status: 2 }).where('id', '=', userId).execute(),
    );
    expect(await version(T)).toBe(before + 1);
    await inTenant(database, { tenantId: T, userId: '1' }, (trx) =>
      trx.updateTable('app_user').set({ status: 1 }).where('id', '=', userId).execute(),
    );
    // A catalogue change bumps the catalogue's version, for every tenant.
    const catalogue = await version('*');
    await inSystem(database, (trx) =>
      trx.updateTable('menu').set({ sort: 19 }).where('tenant_id', '=', '000000').where('code', '=', 'audit').execute(),
    );
    expect(await version('*')).toBe(catalogue + 1);
    // A rolled-back change bumps nothing.
    const current = await version(T);
    await expect(
      inTenant(database, { tenantId: T, userId: '1' }, async (trx) => {
        await trx.deleteFrom('user_role').where('user_id', '=', userId).execute();
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await version(T)).toBe(current);
  });
});
