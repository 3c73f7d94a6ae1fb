import { md5 } from '@sprout/core/auth/password';
import { describe, expect, it } from 'vitest';
import { bladeAuth, fieldNames } from '../../testing';
import { eventually, passwordGrant, saberToken, type TestUser } from './fixtures';
import { a, b, info, teacher, users, useTokenSetup } from './token-setup';

/** The caller's own account: personal info and the password change. */
describe('sign-in, tokens and sessions (two replicas on PostgreSQL + Redis)', () => {
  useTokenSetup();

  describe('own account', () => {
    it('shows and updates personal info, validating every field', async () => {
      const token = (await passwordGrant(a, teacher)).json().access_token;
      const bad = await a.inject({
        method: 'POST',
        url: '/api/blade-user/update-info',
        headers: bladeAuth(token),
        payload: { name: '', phone: '12345', email: 'not-mail', avatar: 'javascript:alert(1)' },
      });
      expect(bad.statusCode).toBe(400);
      const fields = Object.fromEntries(
        bad.json().fields.map((f: { field: string; message: string }) => [f.field, f.message]),
      );
      expect(fields).toMatchObject({
        name: '不能为空',
        phone: '手机号码格式不正确',
        email: '邮箱格式不正确',
        avatar: '头像地址应为 http(s) 链接或站内路径',
      });
      const good = await a.inject({
        method: 'POST',
        url: '/api/blade-user/update-info',
        headers: bladeAuth(token),
        payload: {
          name: '小王',
          realName: '王芳',
          phone: '13800000001',
          email: 'wang@example.cn',
          avatar: '/upload/a.png',
          account: 'hacked',
          tenantId: '100004',
        },
      });
      expect(good.statusCode).toBe(200);
      expect(good.json().data).toMatchObject({
        name: '小王',
        realName: '王芳',
        phone: '13800000001',
        email: 'wang@example.cn',
        avatar: '/upload/a.png',
        account: 'teacher1',
        tenantId: '100001',
      });
      const again = (await info(a, token)).json().data;
      expect(again).toMatchObject({ name: '小王', phone: '13800000001' });
      // What info answers can be sent back as it is: null clears a field.
      const back = await a.inject({
        method: 'POST',
        url: '/api/blade-user/update-info',
        headers: bladeAuth(token),
        payload: { ...again, email: null, avatar: null },
      });
      expect(back.statusCode, back.body).toBe(200);
      expect(back.json().data).toMatchObject({ name: '小王', phone: '13800000001', email: null, avatar: null });
      // Looking users up by phone is for user administrators (system/info-by-phone.int.test.ts).
      const byPhone = await a.inject({
        method: 'GET',
        url: '/api/blade-user/infoByPhone?phone=13800000001',
        headers: bladeAuth(token),
      });
      expect(byPhone.statusCode).toBe(403);
      const ui = await a.inject({ method: 'GET', url: '/api/blade-auth/oauth/user-info', headers: bladeAuth(token) });
      expect(ui.json().data).toMatchObject({
        userId: teacher.id,
        tenantId: '100001',
        account: 'teacher1',
        nickName: '小王',
        realName: '王芳',
        roleName: 'teacher',
        clientId: 'saber',
      });
    });

    it('changes the password: mismatch and a wrong old password are clear 400s; other sessions end', async () => {
      const u = users.pwchange as TestUser;
      const here = (await passwordGrant(a, u)).json().access_token;
      const elsewhere = (await passwordGrant(b, u)).json();
      const change = (q: Record<string, string>) =>
        a.inject({
          method: 'POST',
          url: `/api/blade-user/update-password?${new URLSearchParams(q)}`,
          headers: bladeAuth(here),
        });
      const mismatch = await change({
        oldPassword: md5(u.password),
        newPassword: md5('new-pass-1'),
        newPassword1: md5('new-pass-2'),
      });
      expect(mismatch.statusCode).toBe(400);
      expect(mismatch.json()).toMatchObject({ success: false, msg: '两次密码输入不一致' });
      const wrongOld = await change({
        oldPassword: md5('guess'),
        newPassword: md5('new-pass-1'),
        newPassword1: md5('new-pass-1'),
      });
      expect(wrongOld.statusCode).toBe(400);
      expect(wrongOld.json().msg).toBe('原密码不正确');
      const missing = await change({ oldPassword: md5(u.password) });
      expect(missing.statusCode).toBe(400);
      expect(fieldNames(missing)).toEqual(['newPassword', 'newPassword1']);
      const done = await change({
        oldPassword: md5(u.password),
        newPassword: md5('new-pass-1'),
        newPassword1: md5('new-pass-1'),
      });
      expect(done.statusCode).toBe(200);
      expect((await info(a, here)).statusCode).toBe(200);
      expect(await eventually(async () => (await info(b, elsewhere.access_token)).statusCode === 401)).toBe(true);
      expect(
        (
          await saberToken(a, {
            tenantId: '100001',
            refresh_token: elsewhere.refresh_token,
            grant_type: 'refresh_token',
          })
        ).statusCode,
      ).toBe(400);
      expect((await passwordGrant(a, u)).statusCode).toBe(400);
      expect((await passwordGrant(a, { ...u, password: 'new-pass-1' })).statusCode).toBe(200);
    });
  });
});
