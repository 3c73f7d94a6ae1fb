import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inSystem } from '@sprout/core/db';
import { seed } from '@sprout/core/seed';
import { createTestDatabase, type TestDatabase } from '@sprout/core/testing/pg';
import '../../contexts';
import { up } from './migrations/20261126_0230_demo_auditor';

/** Migration 0230: a demo kindergarten seeded before the auditor existed gets the account, once. */
describe('demo auditor migration', () => {
  let t: TestDatabase;
  const T = '100001';
  const accounts = () =>
    inSystem(t.database, (trx) =>
      trx
        .selectFrom('app_user as u')
        .innerJoin('user_role as ur', (j) =>
          j.onRef('ur.user_id', '=', 'u.id').onRef('ur.tenant_id', '=', 'u.tenant_id'),
        )
        .innerJoin('role as r', (j) => j.onRef('r.id', '=', 'ur.role_id').onRef('r.tenant_id', '=', 'ur.tenant_id'))
        .select(['u.account', 'u.password_hash', 'u.real_name', 'r.role_alias'])
        .where('u.tenant_id', '=', T)
        .where('u.account', 'in', ['admin', 'auditor'])
        .execute(),
    );

  beforeAll(async () => {
    t = await createTestDatabase();
    await seed(t.database, { demo: true });
  });
  afterAll(async () => {
    await t?.drop();
  });

  it('adds the auditor with the demo password and the auditor role, and does nothing the second time', async () => {
    const seeded = await accounts();
    expect(seeded.find((a) => a.account === 'auditor')).toMatchObject({ role_alias: 'auditor', real_name: '吴静' });
    await inSystem(t.database, async (trx) => {
      const id = (
        await trx
          .selectFrom('app_user')
          .select('id')
          .where('tenant_id', '=', T)
          .where('account', '=', 'auditor')
          .executeTakeFirstOrThrow()
      ).id;
      await trx.deleteFrom('user_role').where('tenant_id', '=', T).where('user_id', '=', id).execute();
      await trx.deleteFrom('app_user').where('tenant_id', '=', T).where('id', '=', id).execute();
    });
    expect((await accounts()).map((a) => a.account)).toEqual(['admin']);
    await inSystem(t.database, (trx) => up(trx as never));
    await inSystem(t.database, (trx) => up(trx as never));
    const after = await accounts();
    const admin = after.find((a) => a.account === 'admin');
    const auditor = after.filter((a) => a.account === 'auditor');
    expect(auditor).toHaveLength(1);
    expect(auditor[0]).toMatchObject({ role_alias: 'auditor', real_name: '吴静', password_hash: admin?.password_hash });
  });
});
