import 'i18next';
import type { zhCN } from './locales/zh-CN';

// Typed keys: `t('auth.login.submit')` is checked against the Chinese resource.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof zhCN };
  }
}
