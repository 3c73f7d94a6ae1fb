import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { ContextI18n } from '../app/context';
import { CONTEXTS, KIT_NAMESPACES } from '../app/contexts';
import { type Language, LOCALE_OF, languageOfLocale, readSavedLanguage, saveLanguage } from './languages';
import { en } from './locales/en';

export { loadNamespace } from './namespaces';
import { zhCN } from './locales/zh-CN';

/**
 * One default namespace (`translation`: the shared keys in `locales/`) and one namespace per
 * web context (`web/src/modules/<ctx>/i18n/`). The namespace separator is the key separator,
 * so `t('week.editor.title')` reads `editor.title` of the `week` namespace and
 * `t('common.cancel')` reads the shared `common.cancel`: i18next takes a key's first part for
 * a namespace only when it names one (no shared top-level key may share a namespace's name;
 * a test checks).
 */
const LOCALES = ['zh-CN', 'en'] as const;

type AnyI18n = ContextI18n<string, unknown>;
const namespaces: AnyI18n[] = [
  ...CONTEXTS.flatMap((context): AnyI18n[] => (context.i18n ? [context.i18n] : [])),
  ...KIT_NAMESPACES,
];

/** The shared keys and the namespaces bundled with the shell (the others arrive with their pages). */
const resources = Object.fromEntries(
  LOCALES.map((locale) => [
    locale,
    Object.fromEntries([
      ['translation', { 'zh-CN': zhCN, en }[locale]],
      ...namespaces.flatMap((def) => ('messages' in def ? [[def.namespace, def.messages[locale]]] : [])),
    ]),
  ]),
);

/** Keeps storage, cookie, `<html lang>` and the tab title in step with i18next. */
function applyLanguage(locale: string): void {
  const language = languageOfLocale(locale);
  saveLanguage(language);
  document.documentElement.lang = LOCALE_OF[language];
  document.title = i18n.t('app.title');
}

i18n.on('languageChanged', applyLanguage);

void i18n.use(initReactI18next).init({
  resources,
  ns: ['translation', ...namespaces.map((def) => def.namespace)],
  defaultNS: 'translation',
  nsSeparator: '.',
  lng: LOCALE_OF[readSavedLanguage()],
  fallbackLng: 'zh-CN',
  supportedLngs: ['zh-CN', 'en'],
  interpolation: { escapeValue: false }, // React escapes already
  initAsync: false, // the shell's resources are bundled: ready before the first render
  returnNull: false,
});

/** The current interface language as a short code. */
export function currentLanguage(): Language {
  return languageOfLocale(i18n.resolvedLanguage ?? i18n.language);
}

export function changeLanguage(language: Language): Promise<unknown> {
  return i18n.changeLanguage(LOCALE_OF[language]);
}

export { i18n };
