import { REFRESH_REUSE_GRACE_MS } from '@sprout/core/auth/grants/refresh';
import { inSystem } from '@sprout/core/db';
import { afterEach, describe, expect, it } from 'vitest';
import { bladeAuth, type FastifyInstance } from '../../testing';
import { addUser, claimsOf, eventually, passwordGrant, saberToken, type TestUser } from './fixtures';
import { a, b, info, t, teacherRole, users, useTokenSetup } from './token-setup';

/** Moves both replicas' auth clock `ms` ahead of the wall clock (the reuse grace, no sleeps). */
function clockAhead(ms: number) {
  for (const app of [a, b]) app.auth.now = () => Date.now() + ms;
}

/** The refresh grant: rotation, reuse taken for theft (after a short grace), tokens of another tenant. */
describe('sign-in, tokens and sessions (two replicas on PostgreSQL + Redis)', () => {
  useTokenSetup();

  describe('refresh tokens', () => {
    const refresh = (app: FastifyInstance, token: string, tenantId = '100001') =>
      saberToken(app, { tenantId, refresh_token: token, grant_type: 'refresh_token', scope: 'all' });

    it('rotates: a refresh gives new tokens for the same session, and the old refresh token is spent', async () => {
      const first = (await passwordGrant(a, users.refresher as TestUser)).json();
      const second = await refresh(b, first.refresh_token);
      expect(second.statusCode).toBe(200);
      const s = second.json();
      expect(s).toMatchObject({
        user_id: (users.refresher as TestUser).id,
        tenant_id: '100001',
        token_type: 'bearer',
        role_name: 'teacher',
      });
      expect(s.refresh_token).not.toBe(first.refresh_token);
      expect(claimsOf(s.access_token).sid).toBe(claimsOf(first.access_token).sid);
      expect((await info(a, s.access_token)).statusCode).toBe(200);
      const third = await refresh(a, s.refresh_token);
      expect(third.statusCode).toBe(200);
    });

    afterEach(() => clockAhead(0));

    it('treats reuse of a spent refresh token after the grace as theft: refused, and the whole session is revoked', async () => {
      const first = (await passwordGrant(a, users.refresher as TestUser)).json();
      const second = (await refresh(a, first.refresh_token)).json();
      // The thief (or a stale copy) replays the first refresh token once the grace is over.
      clockAhead(REFRESH_REUSE_GRACE_MS);
      const replay = await refresh(b, first.refresh_token);
      expect(replay.statusCode).toBe(400);
      expect(replay.json().error_description).toBe('刷新令牌已被使用，会话已注销，请重新登录');
      // Neither the latest refresh token nor the latest access token works any more, on either replica.
      expect((await refresh(a, second.refresh_token)).json().error_description).toBe(
        '刷新令牌无效或已过期，请重新登录',
      );
      expect((await info(a, second.access_token)).statusCode).toBe(401);
      expect(await eventually(async () => (await info(b, second.access_token)).statusCode === 401)).toBe(true);
      // Another session of the same user is untouched.
      const other = (await passwordGrant(a, users.refresher as TestUser)).json();
      expect((await info(a, other.access_token)).statusCode).toBe(200);
    });

    it('takes a just-spent refresh token once more within the grace (a page left mid-refresh), with a working pair of the same session', async () => {
      const first = (await passwordGrant(a, users.refresher as TestUser)).json();
      // The page's refresh reached the server, but the page was left before it stored the answer.
      const lost = (await refresh(a, first.refresh_token)).json();
      clockAhead(REFRESH_REUSE_GRACE_MS - 5_000); // late in the grace
      const again = await refresh(b, first.refresh_token);
      expect(again.statusCode).toBe(200);
      const pair = again.json();
      expect(claimsOf(pair.access_token).sid).toBe(claimsOf(first.access_token).sid);
      expect(pair.refresh_token).not.toBe(lost.refresh_token);
      expect((await info(a, pair.access_token)).statusCode).toBe(200);
      // The pair goes on rotating; the session lives.
      const next = await refresh(a, pair.refresh_token);
      expect(next.statusCode).toBe(200);
      expect((await info(b, next.json().access_token)).statusCode).toBe(200);
    });

    it('takes a spent refresh token only once within the grace: a third presentation is theft', async () => {
      const first = (await passwordGrant(a, users.refresher as TestUser)).json();
      await refresh(a, first.refresh_token);
      const graced = (await refresh(a, first.refresh_token)).json();
      const third = await refresh(b, first.refresh_token);
      expect(third.statusCode).toBe(400);
      expect(third.json().errorCode).toBe('refresh_reused');
      expect((await refresh(a, graced.refresh_token)).json().errorCode).toBe('refresh_invalid');
      expect(await eventually(async () => (await info(a, graced.access_token)).statusCode === 401)).toBe(true);
    });

    it('spends the successor the page never received: after the grace it is theft too', async () => {
      const first = (await passwordGrant(a, users.refresher as TestUser)).json();
      const lost = (await refresh(a, first.refresh_token)).json();
      const graced = (await refresh(a, first.refresh_token)).json();
      clockAhead(REFRESH_REUSE_GRACE_MS);
      const replay = await refresh(a, lost.refresh_token);
      expect(replay.json().errorCode).toBe('refresh_reused');
      expect((await info(a, graced.access_token)).statusCode).toBe(401);
    });

    it('lets sign-out and a disabled user win over the grace', async () => {
      // Signed out right after the refresh: the spent token is refused, not taken once more.
      const first = (await passwordGrant(a, users.refresher as TestUser)).json();
      const second = (await refresh(a, first.refresh_token)).json();
      const out = await a.inject({
        method: 'GET',
        url: '/api/blade-auth/oauth/logout',
        headers: bladeAuth(second.access_token),
      });
      expect(out.statusCode).toBe(200);
      const afterLogout = await refresh(a, first.refresh_token);
      expect(afterLogout.statusCode).toBe(400);
      expect(afterLogout.json().errorCode).toBe('refresh_invalid');

      // Disabled right after the refresh: refused as a disabled user.
      const user = await addUser(t.database, { tenantId: '100001', account: 'grace-disabled', roleIds: [teacherRole] });
      const mine = (await passwordGrant(a, user)).json();
      await refresh(a, mine.refresh_token);
      await inSystem(t.database, (trx) =>
        trx
          .updateTable('app_user')
          .set({ status: 0 })
          .where('tenant_id', '=', '100001')
          .where('id', '=', user.id)
          .execute(),
      );
      const afterDisable = await refresh(a, mine.refresh_token);
      expect(afterDisable.statusCode).toBe(400);
      expect(afterDisable.json().errorCode).toBe('user_disabled');
    });

    it('refuses an unknown refresh token, and one presented for another tenant', async () => {
      expect((await refresh(a, 'not-a-token')).json()).toMatchObject({
        error_code: 400,
        error_description: '刷新令牌无效或已过期，请重新登录',
      });
      const first = (await passwordGrant(a, users.refresher as TestUser)).json();
      expect((await refresh(a, first.refresh_token, '100004')).statusCode).toBe(400);
      expect((await refresh(a, first.refresh_token)).statusCode).toBe(200);
    });
  });
});
