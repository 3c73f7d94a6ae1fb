import { describe, expect, it } from 'vitest';
import { type RegistrationValues, validateRegistration } from './registration';

const filled: RegistrationValues = {
  tenantId: '100001',
  name: '小明',
  account: 'xiaoming',
  password: 'secret1',
  password2: 'secret1',
};

describe('validateRegistration (spec §5 order)', () => {
  it('passes a complete form', () => {
    expect(validateRegistration(filled)).toBeNull();
  });

  it('reports the tenant first, even when everything else is wrong too', () => {
    expect(validateRegistration({ tenantId: ' ', name: '', account: '', password: '', password2: 'x' })).toBe(
      'auth.register.tenantRequired',
    );
  });

  it('then the account, then the passwords, then the mismatch', () => {
    expect(validateRegistration({ ...filled, account: '', password: '', password2: 'x' })).toBe(
      'auth.register.accountRequired',
    );
    expect(validateRegistration({ ...filled, password: '', password2: 'x' })).toBe('auth.register.passwordRequired');
    expect(validateRegistration({ ...filled, password: 'x', password2: '' })).toBe('auth.register.passwordRequired');
    expect(validateRegistration({ ...filled, password2: 'secret2' })).toBe('auth.register.passwordMismatch');
  });

  it('does not require the user name (it is prefilled, optional)', () => {
    expect(validateRegistration({ ...filled, name: '' })).toBeNull();
  });
});
