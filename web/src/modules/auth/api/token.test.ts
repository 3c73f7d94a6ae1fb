import { describe, expect, it } from 'vitest';
import { basicAuthorization } from '../../../lib/http';
import { loginErrorMessage, toLoginResult } from './token';

describe('loginErrorMessage', () => {
  it('prefers error_description, then msg', () => {
    expect(loginErrorMessage({ error_description: '用户名或密码不正确', msg: 'Bad Request' })).toBe(
      '用户名或密码不正确',
    );
    expect(loginErrorMessage({ msg: '接口不存在' })).toBe('接口不存在');
    expect(loginErrorMessage({ error_description: '  ', msg: 'fallback' })).toBe('fallback');
  });

  it('gives null when the body has no usable message (the page shows 未知错误)', () => {
    expect(loginErrorMessage(null)).toBeNull();
    expect(loginErrorMessage('<html>')).toBeNull();
    expect(loginErrorMessage({ code: 500 })).toBeNull();
    expect(loginErrorMessage({ msg: 42 })).toBeNull();
  });
});

describe('toLoginResult', () => {
  it('accepts a 2xx with an access token', () => {
    const result = toLoginResult(200, true, { access_token: 'abc', refresh_token: 'def', tenant_id: '000000' });
    expect(result).toEqual({ ok: true, token: { access_token: 'abc', refresh_token: 'def', tenant_id: '000000' } });
  });

  it('rejects a 404 with the server msg', () => {
    expect(toLoginResult(404, false, { code: 404, success: false, msg: '请求的接口不存在' })).toEqual({
      ok: false,
      status: 404,
      message: '请求的接口不存在',
      errorCode: null,
    });
  });

  it('rejects a 2xx that carries error_description or no token, keeping the errorCode', () => {
    expect(
      toLoginResult(200, true, { error_code: 400, error_description: '租户不存在', errorCode: 'tenant_not_found' }),
    ).toEqual({ ok: false, status: 200, message: '租户不存在', errorCode: 'tenant_not_found' });
    expect(toLoginResult(200, true, {})).toEqual({ ok: false, status: 200, message: null, errorCode: null });
  });
});

describe('basicAuthorization', () => {
  it('encodes the client credentials', () => {
    expect(basicAuthorization()).toBe('Basic c2FiZXI6c2FiZXJfc2VjcmV0');
  });
});
