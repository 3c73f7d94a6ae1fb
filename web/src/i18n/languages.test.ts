import { describe, expect, it } from 'vitest';
import type { Catalogue } from '../app/context';
import { CONTEXTS, KIT_NAMESPACES } from '../app/contexts';
import { zhCN as authZhCN } from '../modules/auth/i18n/zh-CN';
import { en } from './locales/en';
import { zhCN } from './locales/zh-CN';
import { isLanguage, languageOfLocale } from './languages';

function keysOf(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([k, v]) => keysOf(v, prefix ? `${prefix}.${k}` : k));
}

function expectNoEmptyMessage(messages: object): void {
  for (const key of keysOf(messages)) {
    const value = key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], messages);
    expect(typeof value === 'string' && value.trim().length > 0, key).toBe(true);
  }
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
    for (const messages of [zhCN, en]) expectNoEmptyMessage(messages);
  });

  it('use the spec titles and login messages', () => {
    expect(zhCN.app.title).toBe('萌芽教学管理平台');
    expect(en.app.title).toBe('Sprout Teaching Platform');
    expect(authZhCN.login.tenant.required).toBe('请输入租户编号');
    expect(authZhCN.login.account.required).toBe('请输入账号');
    expect(authZhCN.login.password.required).toBe('请输入密码');
    expect(zhCN.errors.unknown).toBe('未知错误');
    expect(en.errors.unknown).toBe('Unknown error');
  });
});

describe('context namespaces', () => {
  const catalogues = () =>
    Promise.all(
      CONTEXTS.flatMap((context) => {
        const def = context.i18n;
        if (!def) return [];
        const messages = 'messages' in def ? Promise.resolve(def.messages) : def.load();
        return [
          messages.then((catalogue: Catalogue<unknown>) => ({
            context: context.name,
            namespace: def.namespace,
            catalogue,
          })),
        ];
      }),
    );

  it('have the same keys in both languages and no empty message', async () => {
    const all = await catalogues();
    expect(all.length).toBeGreaterThan(0);
    for (const { context, namespace, catalogue } of all) {
      expect(namespace, 'a context’s namespace is its name').toBe(context);
      expect(keysOf(catalogue.en).sort(), namespace).toEqual(keysOf(catalogue['zh-CN']).sort());
      for (const messages of [catalogue['zh-CN'], catalogue.en]) expectNoEmptyMessage(messages as object);
    }
  });

  it("are named apart from the shared keys (a namespace is a key's first part: t('week.x'))", async () => {
    const names = (await catalogues()).map((c) => c.namespace);
    expect(names.filter((name) => name in zhCN)).toEqual([]);
    expect(new Set(names).size).toBe(names.length);
  });
});

describe('kit namespaces', () => {
  it('have the same keys in both languages, no empty message, and names apart from the contexts and shared keys', async () => {
    const contextNames = CONTEXTS.flatMap((context) => (context.i18n ? [context.i18n.namespace as string] : []));
    for (const def of KIT_NAMESPACES) {
      const catalogue = 'messages' in def ? def.messages : await def.load();
      expect(keysOf(catalogue.en).sort(), def.namespace).toEqual(keysOf(catalogue['zh-CN']).sort());
      for (const messages of [catalogue['zh-CN'], catalogue.en]) expectNoEmptyMessage(messages);
      expect(def.namespace in zhCN || contextNames.includes(def.namespace), def.namespace).toBe(false);
    }
  });
});
