import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { WeekMessages } from '../i18n/zh-CN';

type Leaves<T, P extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${P}${K}` : Leaves<T[K], `${P}${K}.`>;
}[keyof T & string];
export type CollabKey = Leaves<WeekMessages['collab']>;

/** `t` for the texts of live co-editing (`week.collab.*`). */
export function useCollabT() {
  const { t } = useTranslation();
  return useCallback(
    (key: CollabKey, options?: Record<string, unknown>) => String(t(`week.collab.${key}` as never, options as never)),
    [t],
  );
}
