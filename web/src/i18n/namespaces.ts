import i18n from 'i18next';
import type { Catalogue, ContextI18n } from '../app/context';

const LOCALES = ['zh-CN', 'en'] as const;

const loading = new Map<string, Promise<void>>();

/**
 * Makes a context's namespace available (both languages, so switching shows no raw keys):
 * at once when it is bundled, else its chunk is loaded once; a failed load is tried again.
 */
export function loadNamespace(def: ContextI18n<string, unknown> | undefined): Promise<void> {
  if (!def || !('load' in def)) return Promise.resolve();
  let pending = loading.get(def.namespace);
  if (!pending) {
    pending = def.load().then((catalogue: Catalogue<unknown>) => {
      for (const locale of LOCALES) i18n.addResourceBundle(locale, def.namespace, catalogue[locale], true, true);
    });
    pending.catch(() => loading.delete(def.namespace));
    loading.set(def.namespace, pending);
  }
  return pending;
}
