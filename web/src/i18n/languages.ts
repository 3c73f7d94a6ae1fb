import { writeCookie } from '../lib/cookie';
import { readStore, writeStore } from '../lib/storage';

/** Interface languages. The short code is what is stored and sent to the server. */
export const LANGUAGES = ['zh', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Spec §9: default language zh. */
export const DEFAULT_LANGUAGE: Language = 'zh';

/** i18next resource locale and `<html lang>` for each language. */
export const LOCALE_OF: Record<Language, 'zh-CN' | 'en'> = { zh: 'zh-CN', en: 'en' };
export type Locale = (typeof LOCALE_OF)[Language];

/** Storage name (prefixed → `sprout-language`) and cookie name the server reads. */
export const LANGUAGE_STORE_NAME = 'language';
export const LANGUAGE_COOKIE_NAME = 'language';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** Maps an i18next language ('zh-CN', 'zh', 'en-US', …) back to a short code. */
export function languageOfLocale(locale: string | undefined): Language {
  const base = (locale ?? '').toLowerCase().split('-')[0];
  return isLanguage(base) ? base : DEFAULT_LANGUAGE;
}

/** The saved language; also accepts a stored locale such as `zh-CN`. */
export function readSavedLanguage(): Language {
  const saved = readStore(LANGUAGE_STORE_NAME);
  return saved ? languageOfLocale(saved) : DEFAULT_LANGUAGE;
}

/** Saves the language locally and in the `language` cookie so the server answers in it too. */
export function saveLanguage(language: Language): void {
  writeStore(LANGUAGE_STORE_NAME, language);
  writeCookie(LANGUAGE_COOKIE_NAME, language);
}
