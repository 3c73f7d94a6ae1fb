import { describe, expect, it } from 'vitest';
import { en } from './locales/en';
import { zhCN } from './locales/zh-CN';
import { isLanguage, languageOfLocale } from './languages';

function keysOf(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([k, v]) => keysOf(v, prefix ? `${prefix}.${k}` : k));
}

describe('languages', () => {
  it('maps i18next locales to the short code stored and sent to the server', () => {
    expect(languageOfLocale('zh-CN')).toBe('zh');
    expect(languageOfLocale('en')).toBe('en');
    expect(languageOfLocale('en-US')).toBe('en');
    expect(languageOfLocale('fr')).toBe('zh');
    expect(languageOfLocale(undefined)).toBe('zh');
  });

  it('recognises only the supported short codes', () => {
    expect(isLanguage('zh')).toBe(true);
    expect(isLanguage('en')).toBe(true);
    expect(isLanguage('zh-CN')).toBe(false);
    expect(isLanguage(1)).toBe(false);
  });
});

describe('locale files', () => {
  it('have the same keys in both languages', () => {
    expect(keysOf(en).sort()).toEqual(keysOf(zhCN).sort());
  });

  it('have no empty message', () => {
    for (const messages of [zhCN, en]) {
      for (const key of keysOf(messages)) {
        const value = key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], messages);
        expect(typeof value === 'string' && value.trim().length > 0, key).toBe(true);
      }
    }
  });

  it('use the spec titles and login messages', () => {
    expect(zhCN.app.title).toBe('萌芽教学管理平台');
    expect(en.app.title).toBe('Sprout Teaching Platform');
    expect(zhCN.auth.login.tenant.required).toBe('请输入租户编号');
    expect(zhCN.auth.login.account.required).toBe('请输入账号');
    expect(zhCN.auth.login.password.required).toBe('请输入密码');
    expect(zhCN.errors.unknown).toBe('未知错误');
    expect(en.errors.unknown).toBe('Unknown error');
  });
});
