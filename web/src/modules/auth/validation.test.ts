import { describe, expect, it } from 'vitest';
import { validateLogin, validateLoginField } from './validation';

describe('validateLogin', () => {
  it('passes a filled form', () => {
    expect(validateLogin({ tenantId: '000000', username: 'admin', password: 'admin' })).toEqual({});
  });

  it('names every empty field with its message key', () => {
    expect(validateLogin({ tenantId: '', username: '', password: '' })).toEqual({
      tenantId: 'auth.login.tenant.required',
      username: 'auth.login.account.required',
      password: 'auth.login.password.required',
    });
  });

  it('treats blank tenant and account as empty but keeps a password of spaces', () => {
    expect(validateLogin({ tenantId: '  ', username: ' ', password: '  ' })).toEqual({
      tenantId: 'auth.login.tenant.required',
      username: 'auth.login.account.required',
    });
  });

  it('checks one field at a time (used on blur)', () => {
    const values = { tenantId: '000000', username: '', password: 'x' };
    expect(validateLoginField('tenantId', values)).toBeUndefined();
    expect(validateLoginField('username', values)).toBe('auth.login.account.required');
  });
});

describe('validateLogin with optional fields', () => {
  it('skips the tenant when it comes from the domain, and asks for the captcha when it is on', () => {
    const values = { tenantId: '', username: 'a', password: 'b', captcha: ' ' };
    expect(validateLogin(values, { tenant: false, captcha: true })).toEqual({
      captcha: 'auth.login.captcha.required',
    });
    expect(validateLogin(values, { tenant: false, captcha: false })).toEqual({});
  });
});
