import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inSystem } from '@sprout/core/db';
import { nextId } from '@sprout/core/ids';
import { createTestDatabase, type TestDatabase } from '@sprout/core/testing/pg';
import { purgeExpiredAuthData } from './housekeeping';

describe('auth housekeeping', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(async () => t?.drop());

  it('deletes only what is a day past expiry, and log rows past retention, across tenants', async () => {
    const now = new Date('2026-11-21T12:00:00Z');
    const ago = (days: number) => new Date(now.getTime() - days * 86_400_000);
    const ids = { oldSession: nextId(), liveSession: nextId() };
    await inSystem(t.database, async (trx) => {
      for (const [tenant, id, expire] of [
        ['100001', ids.oldSession, ago(2)],
        ['100002', ids.liveSession, ago(0.5)],
      ] as const) {
        await trx
          .insertInto('auth_session')
          .values({
            tenant_id: tenant,
            id,
            user_id: '1',
            client_id: 'saber',
            grant_type: 'password',
            create_time: ago(10),
            expire_time: expire,
          })
          .execute();
        await trx
          .insertInto('auth_refresh_token')
          .values({
            tenant_id: tenant,
            token_hash: `h${id}`,
            session_id: id,
            user_id: '1',
            create_time: ago(10),
            expire_time: expire,
          })
          .execute();
      }
      await trx
        .insertInto('security_log')
        .values([
          { tenant_id: '100001', id: nextId(), event: 'login', result: 'ok', create_time: ago(200) },
          { tenant_id: '100002', id: nextId(), event: 'login', result: 'ok', create_time: ago(10) },
        ])
        .execute();
      // Word exports: one past its hour, one still downloadable.
      const exportRow = (expires: Date) => ({
        tenant_id: '100001',
        id: nextId(),
        user_id: '1',
        total: 1,
        file_name: 'a.zip',
        file: Buffer.from('zip'),
        error: null,
        expires_at: expires,
      });
      await trx
        .insertInto('record_export')
        .values([exportRow(ago(0.01)), exportRow(new Date(now.getTime() + 60_000))])
        .execute();
    });
    const report = await purgeExpiredAuthData(t.database, 180, now);
    expect(report).toEqual({ refreshTokens: 1, sessions: 1, securityLog: 1, exports: 1 });
    const left = await inSystem(t.database, async (trx) => ({
      sessions: (await trx.selectFrom('auth_session').select('id').execute()).map((r) => String(r.id)),
      logs: (await trx.selectFrom('security_log').select('tenant_id').execute()).map((r) => r.tenant_id),
    }));
    expect(left).toEqual({ sessions: [ids.liveSession], logs: ['100002'] });
    expect(await purgeExpiredAuthData(t.database, 180, now)).toEqual({
      refreshTokens: 0,
      sessions: 0,
      securityLog: 0,
      exports: 0,
    });
  });
});
