import { describe, expect, it } from 'vitest';
import { t } from '../i18n';
import { AuthError, type AuthErrorCode } from './errors';
import { AUTH_MESSAGES } from './messages';

describe('auth messages', () => {
  it('ships every message in Chinese and English', () => {
    expect(Object.keys(AUTH_MESSAGES.en).sort()).toEqual(Object.keys(AUTH_MESSAGES.zh).sort());
    for (const [k, v] of Object.entries(AUTH_MESSAGES.en)) {
      expect(v, k).not.toBe('');
      expect(v, k).not.toMatch(/[\u4e00-\u9fff]/);
    }
  });

  it('uses the spec’s wording for the sign-in failures', () => {
    const zh = (code: AuthErrorCode) => t('zh', new AuthError(code).messageKey);
    expect(zh('bad_credentials')).toBe('用户名或密码错误');
    expect(zh('captcha_invalid')).toBe('验证码不正确');
    expect(zh('tenant_not_found')).toBe('租户ID未找到');
    expect(zh('tenant_expired')).toBe('租户已过期');
    expect(zh('user_disabled')).toBe('用户已被禁用');
    expect(zh('captcha_required')).toBe('请输入验证码');
    expect(t('en', new AuthError('ip_locked', { minutes: 15 }).messageKey, { minutes: 15 })).toBe(
      'Too many failed sign-ins from this network; enter the verification code, or try again in 15 min',
    );
    expect(t('zh', 'auth.registered')).toBe('注册申请已提交,请耐心等待管理员通过!');
    expect(new AuthError('invalid_client').status).toBe(401);
    expect(new AuthError('bad_credentials').status).toBe(400);
    expect(new AuthError('ip_locked', { minutes: 1 }, 30)).toMatchObject({ status: 429, retryAfterSec: 30 });
  });
});
