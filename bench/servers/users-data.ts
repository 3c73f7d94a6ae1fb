// Bench data: 1,000 users per tenant with realistic names, mails and phones, then `analyze`.
import { sql } from 'kysely';
import { hashPassword } from '@sprout/core/auth/password';
import { type Database, inSystem } from '@sprout/core/db';
import { nextId } from '@sprout/core/ids';

export async function addBenchUsers(database: Database, tenants: readonly string[]) {
  const hash = await hashPassword('x');
  await inSystem(database, async (trx) => {
    for (const tenant of tenants) {
      const rows = Array.from({ length: 1000 }, (_, i) => ({
        tenant_id: tenant,
        id: nextId(),
        account: `user${i}`,
        password_hash: hash,
        real_name: `教师${i}`,
        email: `user${i}@example.cn`,
        phone: `138${String(i).padStart(8, '0')}`,
        create_time: new Date(Date.UTC(2026, 0, 1) + i * 60_000),
      }));
      await trx.insertInto('app_user').values(rows).execute();
    }
    await sql`analyze`.execute(trx);
  });
}
