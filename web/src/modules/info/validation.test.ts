import { describe, expect, it } from 'vitest';
import { checkAvatar, validateEmail, validatePasswords, validatePhone } from './validation';

describe('validatePhone (spec §5 order, mainland mobile pattern)', () => {
  it('accepts mainland mobile numbers', () => {
    for (const phone of ['13800138000', '15912345678', '19900001111', ' 17712345678 ']) {
      expect(validatePhone(phone)).toBeNull();
    }
  });

  it('reports empty, then length, then format', () => {
    expect(validatePhone('')).toBe('info.phone.required');
    expect(validatePhone('   ')).toBe('info.phone.required');
    expect(validatePhone('1380013800')).toBe('info.phone.length');
    expect(validatePhone('138001380001')).toBe('info.phone.length');
    expect(validatePhone('12800138000')).toBe('info.phone.format'); // no 12x networks
    expect(validatePhone('23800138000')).toBe('info.phone.format');
    expect(validatePhone('1380013800a')).toBe('info.phone.format');
    expect(validatePhone('010-8888888')).toBe('info.phone.format'); // a landline is refused
    expect(validatePhone('010-88888888')).toBe('info.phone.length');
  });
});

describe('validateEmail', () => {
  it('is optional but must look like an address', () => {
    expect(validateEmail('')).toBeNull();
    expect(validateEmail('teacher@sprout.cn')).toBeNull();
    expect(validateEmail('teacher@')).toBe('info.email.format');
  });
});

describe('checkAvatar (jpg/png, ≤ 500 kb)', () => {
  it('accepts a small jpg or png', () => {
    expect(checkAvatar({ name: 'me.jpg', type: 'image/jpeg', size: 1000 })).toBeNull();
    expect(checkAvatar({ name: 'me.png', type: 'image/png', size: 500 * 1024 })).toBeNull();
    expect(checkAvatar({ name: 'me.JPEG', type: '', size: 10 })).toBeNull();
  });

  it('refuses other types first, then anything over 500 kb', () => {
    expect(checkAvatar({ name: 'me.gif', type: 'image/gif', size: 10 })).toBe('info.avatar.badType');
    expect(checkAvatar({ name: 'me.svg', type: 'image/svg+xml', size: 10 })).toBe('info.avatar.badType');
    expect(checkAvatar({ name: 'me.gif', type: 'image/gif', size: 10_000_000 })).toBe('info.avatar.badType');
    expect(checkAvatar({ name: 'me.png', type: 'image/png', size: 500 * 1024 + 1 })).toBe('info.avatar.tooBig');
  });
});

describe('validatePasswords', () => {
  it('requires all three and a matching confirmation', () => {
    expect(validatePasswords({ oldPassword: '', newPassword: '', newPassword1: '' })).toEqual({
      oldPassword: 'info.password.oldRequired',
      newPassword: 'info.password.newRequired',
      newPassword1: 'info.password.confirmRequired',
    });
    expect(validatePasswords({ oldPassword: 'a', newPassword: 'b', newPassword1: 'c' })).toEqual({
      newPassword1: 'info.password.mismatch',
    });
    expect(validatePasswords({ oldPassword: 'a', newPassword: 'b', newPassword1: 'b' })).toEqual({});
  });
});
