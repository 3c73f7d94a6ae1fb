import '@sprout/api/contexts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inSystem } from '../db';
import { seed } from '../seed';
import { createTestDatabase, type TestDatabase } from '../testing/pg';
import { catalogueIndex, seedTenantRoles } from './seed';

/**
 * Catalogue entries added after a tenant was seeded reach its seeded roles when the seed runs
 * again — once: what the tenant's administrator revoked is never granted back.
 */
describe('seed: new catalogue entries for existing tenants', () => {
  let t: TestDatabase;
  const T = '100002';

  /** The menu and button codes and data-scope codes a role of T holds. */
  const holds = (alias: string) =>
    inSystem(t.database, async (trx) => {
      const role = await trx
        .selectFrom('role')
        .select('id')
        .where('tenant_id', '=', T)
        .where('role_alias', '=', alias)
        .where('is_deleted', '=', 0)
        .executeTakeFirstOrThrow();
      const menus = await trx
        .selectFrom('role_menu as rm')
        .innerJoin('menu as m', (j) => j.onRef('m.id', '=', 'rm.menu_id').on('m.tenant_id', '=', '000000'))
        .select('m.code')
        .where('rm.tenant_id', '=', T)
        .where('rm.role_id', '=', role.id)
        .execute();
      const data = await trx
        .selectFrom('role_scope as rs')
        .innerJoin('scope_data as d', (j) => j.onRef('d.id', '=', 'rs.scope_id').on('d.tenant_id', '=', '000000'))
        .select('d.code')
        .where('rs.tenant_id', '=', T)
        .where('rs.role_id', '=', role.id)
        .where('rs.scope_category', '=', 1)
        .execute();
      return { roleId: String(role.id), codes: new Set([...menus.map((m) => m.code), ...data.map((d) => d.code)]) };
    });

  /** Takes catalogue entries out as if an older catalogue never had them (and so no tenant held them). */
  const forget = (menuCodes: string[], dataCodes: string[]) =>
    inSystem(t.database, async (trx) => {
      const menuIds = (await trx.selectFrom('menu').select('id').where('code', 'in', menuCodes).execute()).map(
        (m) => m.id,
      );
      const dataIds = dataCodes.length
        ? (await trx.selectFrom('scope_data').select('id').where('code', 'in', dataCodes).execute()).map((d) => d.id)
        : [];
      if (menuIds.length) {
        await trx.deleteFrom('role_menu').where('menu_id', 'in', menuIds).execute();
        await trx.deleteFrom('scope_api').where('menu_id', 'in', menuIds).execute();
        await trx.deleteFrom('menu').where('id', 'in', menuIds).execute();
      }
      if (dataIds.length) {
        await trx.deleteFrom('role_scope').where('scope_id', 'in', dataIds).execute();
        await trx.deleteFrom('scope_data').where('id', 'in', dataIds).execute();
      }
      await trx
        .deleteFrom('role_catalogue_offer')
        .where('entry', 'in', [...menuCodes.map((c) => `menu:${c}`), ...dataCodes.map((c) => `data:${c}`)])
        .execute();
    });

  /** A tenant administrator's revocation of a menu or button from a role. */
  const revoke = (roleId: string, code: string) =>
    inSystem(t.database, async (trx) => {
      const menu = await trx.selectFrom('menu').select('id').where('code', '=', code).executeTakeFirstOrThrow();
      await trx
        .deleteFrom('role_menu')
        .where('tenant_id', '=', T)
        .where('role_id', '=', roleId)
        .where('menu_id', '=', menu.id)
        .execute();
    });

  beforeAll(async () => {
    t = await createTestDatabase();
    await seed(t.database, { demo: false });
    await inSystem(t.database, async (trx) => {
      await trx.insertInto('tenant').values({ tenant_id: T, tenant_name: '老幼儿园', account_number: -1 }).execute();
      await seedTenantRoles(trx, T, await catalogueIndex(trx));
    });
  });
  afterAll(async () => {
    await t?.drop();
  });

  it('grants an entry added to the catalogue later to the roles whose definition includes it, never what was revoked', async () => {
    // The tenant was seeded by an older catalogue without the copy button and the audit data scopes.
    await forget(['week_copy'], ['audit_all', 'audit_own', 'audit_dept', 'audit_dept_below', 'audit_class']);
    const teacher = await holds('teacher');
    const auditor = await holds('auditor');
    expect(teacher.codes.has('week_copy')).toBe(false);
    expect(auditor.codes.has('audit_all')).toBe(false);
    // Its administrator revoked 新增备课 from teachers.
    expect(teacher.codes.has('week_add')).toBe(true);
    await revoke(teacher.roleId, 'week_add');

    const report = await seed(t.database, { demo: false });
    expect(report.created.join('\n')).toContain(`grants of ${T} teacher`);
    const after = await holds('teacher');
    expect(after.codes.has('week_copy')).toBe(true);
    expect(after.codes.has('week_add')).toBe(false);
    expect((await holds('auditor')).codes.has('audit_all')).toBe(true);
    expect((await holds('admin')).codes.has('audit_all')).toBe(true);
    // Not in the caregiver's definition: not granted.
    expect((await holds('caregiver')).codes.has('week_copy')).toBe(false);

    // Revoking the new entry after it was offered: the next start leaves it revoked.
    await revoke(after.roleId, 'week_copy');
    const again = await seed(t.database, { demo: false });
    expect(again.created).toEqual([]);
    expect((await holds('teacher')).codes.has('week_copy')).toBe(false);
  });

  it('grants an API scope added later to a screen the role already holds', async () => {
    /** The auditor's API patterns under the 审计追溯 screen. */
    const auditApis = () =>
      inSystem(t.database, async (trx) => {
        const role = await trx
          .selectFrom('role')
          .select('id')
          .where('tenant_id', '=', T)
          .where('role_alias', '=', 'auditor')
          .executeTakeFirstOrThrow();
        const rows = await trx
          .selectFrom('role_scope as rs')
          .innerJoin('scope_api as a', (j) => j.onRef('a.id', '=', 'rs.scope_id').on('a.tenant_id', '=', '000000'))
          .select('a.scope_path')
          .where('rs.tenant_id', '=', T)
          .where('rs.role_id', '=', role.id)
          .where('rs.scope_category', '=', 2)
          .where('a.resource_code', '=', 'audit')
          .execute();
        return rows.map((r) => r.scope_path);
      });
    expect(await auditApis()).toEqual(['GET /api/audit/**']);
    // An older catalogue had the screen without this API scope.
    await inSystem(t.database, async (trx) => {
      const ids = (await trx.selectFrom('scope_api').select('id').where('resource_code', '=', 'audit').execute()).map(
        (a) => a.id,
      );
      await trx.deleteFrom('role_scope').where('scope_id', 'in', ids).execute();
      await trx.deleteFrom('scope_api').where('id', 'in', ids).execute();
    });
    expect(await auditApis()).toEqual([]);
    await seed(t.database, { demo: false });
    expect(await auditApis()).toEqual(['GET /api/audit/**']);
  });

  it('a role seeded before offers were recorded keeps what it holds and gets only entries new in this run', async () => {
    const leader = await holds('leader');
    // Seeded before migration 0014: no offers; its administrator had revoked 审核备课 back then.
    await inSystem(t.database, (trx) =>
      trx.deleteFrom('role_catalogue_offer').where('tenant_id', '=', T).where('role_id', '=', leader.roleId).execute(),
    );
    await revoke(leader.roleId, 'week_review');
    await forget(['week_copy'], []);
    expect((await holds('leader')).codes.has('week_copy')).toBe(false);

    await seed(t.database, { demo: false });
    const after = await holds('leader');
    expect(after.codes.has('week_copy')).toBe(true);
    expect(after.codes.has('week_review')).toBe(false);
    // From now on its offers are recorded: a third run changes nothing.
    await seed(t.database, { demo: false });
    expect((await holds('leader')).codes).toEqual(after.codes);
  });
});
