import { describe, expect, it } from 'vitest';
import { resolveLang, t } from './i18n';

describe('i18n', () => {
  it('defaults to Chinese', () => {
    expect(resolveLang()).toBe('zh');
    expect(resolveLang('fr-FR')).toBe('zh');
    expect(t('zh', 'ok')).toBe('操作成功');
  });

  it('prefers the language cookie, then Accept-Language by quality', () => {
    expect(resolveLang('en-US,en;q=0.9', 'zh')).toBe('zh');
    expect(resolveLang('fr;q=1, en;q=0.8, zh;q=0.5')).toBe('en');
    expect(resolveLang('zh-CN,zh;q=0.9,en;q=0.8')).toBe('zh');
    expect(resolveLang(undefined, 'en')).toBe('en');
  });

  it('fills parameters', () => {
    expect(t('en', 'error.routeNotFound', { method: 'POST', url: '/api/x' })).toBe('No such API: POST /api/x');
  });
});
