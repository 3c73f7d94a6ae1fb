import { md5 } from '@sprout/core/auth/password';
import { describe, expect, it } from 'vitest';
import { type FastifyInstance, testApp, testConfig } from '../../testing';
import { passwordGrant, peekKv, saberToken } from './fixtures';
import { a, b, config, configB, env, t, teacher, useTokenSetup } from './token-setup';

/** The captcha grant: codes shared by the replicas, single use, expiring; CAPTCHA_ENABLED. */
describe('sign-in, tokens and sessions (two replicas on PostgreSQL + Redis)', () => {
  useTokenSetup();

  describe('captcha grant', () => {
    const captchaGrant = (app: FastifyInstance, key: string, code: string) =>
      saberToken(
        app,
        {
          tenantId: '100001',
          username: 'teacher1',
          password: md5('sprout123'),
          grant_type: 'captcha',
          scope: 'all',
          type: 'account',
        },
        { 'captcha-key': key, 'captcha-code': code },
      );
    const newCaptcha = async (app: FastifyInstance) => {
      const r = await app.inject({ method: 'GET', url: '/api/blade-auth/oauth/captcha' });
      expect(r.statusCode).toBe(200);
      const { key, image } = r.json();
      expect(image).toMatch(/^data:image\/svg\+xml;base64,/);
      expect(Buffer.from(image.split(',')[1], 'base64').toString()).toContain('<svg');
      const code = await peekKv(app === a ? config : configB, `captcha:${key}`);
      expect(code).toMatch(/^[a-z0-9]{4}$/);
      return { key: key as string, code: code as string };
    };

    it('signs in with the right code, issued on one replica and checked on the other', async () => {
      const c = await newCaptcha(a);
      const r = await captchaGrant(b, c.key, c.code.toUpperCase());
      expect(r.statusCode).toBe(200);
      expect(r.json().user_id).toBe(teacher.id);
    });

    it('refuses a wrong code, and the code is gone after that one try', async () => {
      const c = await newCaptcha(a);
      const wrong = await captchaGrant(a, c.key, c.code === 'zzzz' ? 'yyyy' : 'zzzz');
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().error_description).toBe('验证码不正确');
      expect((await captchaGrant(a, c.key, c.code)).json().error_description).toBe('验证码不正确');
    });

    it('refuses a reused code', async () => {
      const c = await newCaptcha(a);
      expect((await captchaGrant(a, c.key, c.code)).statusCode).toBe(200);
      const again = await captchaGrant(b, c.key, c.code);
      expect(again.statusCode).toBe(400);
      expect(again.json().error_description).toBe('验证码不正确');
    });

    it('refuses an expired code', async () => {
      const c = await newCaptcha(b); // replica B keeps codes for one second
      await new Promise((r) => setTimeout(r, 1300));
      const r = await captchaGrant(b, c.key, c.code);
      expect(r.statusCode).toBe(400);
      expect(r.json().error_description).toBe('验证码不正确');
    });

    it('with CAPTCHA_ENABLED, asks the password grant for a captcha too (no bypass)', async () => {
      const strict = await testApp(t.database, { config: testConfig({ ...env, CAPTCHA_ENABLED: 'true' }) });
      try {
        const plain = await passwordGrant(strict.app, teacher);
        expect(plain.statusCode).toBe(400);
        expect(plain.json().error_description).toBe('验证码不正确');
        const c = await newCaptcha(a);
        expect(
          (await passwordGrant(strict.app, teacher, { 'captcha-key': c.key, 'captcha-code': c.code })).statusCode,
        ).toBe(200);
      } finally {
        await strict.app.close();
      }
    });

    it('refuses a captcha grant without the headers', async () => {
      const r = await saberToken(a, {
        tenantId: '100001',
        username: 'teacher1',
        password: md5('sprout123'),
        grant_type: 'captcha',
      });
      expect(r.json()).toMatchObject({ error_code: 400, error_description: '验证码不正确' });
    });
  });
});
