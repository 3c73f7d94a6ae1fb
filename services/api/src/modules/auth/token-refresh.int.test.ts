import { describe, expect, it } from 'vitest';
import type { FastifyInstance } from '../../testing';
import { claimsOf, eventually, passwordGrant, saberToken, type TestUser } from './fixtures';
import { a, b, info, users, useTokenSetup } from './token-setup';

/** The refresh grant: rotation, reuse taken for theft, tokens of another tenant. */
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

    it('treats reuse of a spent refresh token as theft: refused, and the whole session is revoked', async () => {
      const first = (await passwordGrant(a, users.refresher as TestUser)).json();
      const second = (await refresh(a, first.refresh_token)).json();
      // The thief (or a stale copy) replays the first refresh token.
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
