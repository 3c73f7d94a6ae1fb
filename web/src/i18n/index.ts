import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { type Language, LOCALE_OF, languageOfLocale, readSavedLanguage, saveLanguage } from './languages';
import { en } from './locales/en';
import { zhCN } from './locales/zh-CN';

export const resources = {
  'zh-CN': { translation: zhCN },
  en: { translation: en },
} as const;

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
  lng: LOCALE_OF[readSavedLanguage()],
  fallbackLng: 'zh-CN',
  supportedLngs: ['zh-CN', 'en'],
  interpolation: { escapeValue: false }, // React escapes already
  initAsync: false, // resources are bundled: ready before the first render
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
