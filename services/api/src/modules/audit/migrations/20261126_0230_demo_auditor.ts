// The demo kindergarten's auditor (issue 24): a database seeded before the account existed gets
// it too. A fresh database has no demo tenant yet when migrating (the seed adds the account).
import { type Kysely, sql } from 'kysely';

// Frozen: never edit after it has shipped; add a new file instead. Never import app code.

export async function up(db: Kysely<unknown>): Promise<void> {
  // Like every demo account: the demo password's hash (they share it), the campus (the
  // administrator's dept), the tenant's seeded `auditor` role.
  await sql`
    insert into app_user (tenant_id, id, account, password_hash, name, real_name, dept_id)
    select a.tenant_id, (select max(id) + 1 from app_user where tenant_id = a.tenant_id),
           'auditor', a.password_hash, '审计员', '吴静', a.dept_id
    from app_user a
    where a.tenant_id = '100001' and a.account = 'admin'
      and exists (select 1 from app_user c where c.tenant_id = '100001' and c.account = 'caregiver')
      and exists (select 1 from role r where r.tenant_id = '100001' and r.role_alias = 'auditor')
      and not exists (select 1 from app_user x where x.tenant_id = '100001' and x.account = 'auditor')`.execute(db);
  await sql`
    insert into user_role (tenant_id, user_id, role_id)
    select u.tenant_id, u.id, r.id
    from app_user u join role r on r.tenant_id = u.tenant_id and r.role_alias = 'auditor'
    where u.tenant_id = '100001' and u.account = 'auditor'
      and not exists (select 1 from user_role x where x.tenant_id = u.tenant_id and x.user_id = u.id)`.execute(db);
}

export async function down(_db: Kysely<unknown>): Promise<void> {
  // The account stays: it may have been used (its security log names it).
}
