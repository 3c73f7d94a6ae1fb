import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { MenuEntry } from '../menu/types';

/** A menu's label: its `menu.<code>` translation, else the server's name. */
export function useMenuLabel(): (entry: Pick<MenuEntry, 'i18nKey' | 'name'>) => string {
  const { t, i18n } = useTranslation();
  return useCallback(
    (entry) => (i18n.exists(entry.i18nKey) ? (t(entry.i18nKey as never) as string) : entry.name),
    [t, i18n],
  );
}
