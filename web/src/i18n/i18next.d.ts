import 'i18next';
import type { ContextMessages } from '../app/contexts';
import type { zhCN } from './locales/zh-CN';

// Typed keys: `t('common.cancel')` is checked against the shared Chinese resource, and
// `t('week.editor.title')` against the `week` namespace's (one key space: the namespace is a
// key's first part, see index.ts).
type Keys = typeof zhCN & ContextMessages;

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: { [K in keyof Keys]: Keys[K] } };
  }
}
