/**
 * Field kinds beyond text and selects (pure): an icon picked from a grid, and the badge a
 * select's value shows in a table. The screen gives the icons (the kit knows none).
 */
import type { ComponentType } from 'react';
import type { CrudColumn, CrudRecord } from './define';

export type IconComponent = ComponentType<{ size?: number | string; stroke?: number }>;

/** An icon a field may hold: the value stored, its name (searched, shown) and the component. */
export interface IconChoice {
  value: string;
  name: string;
  /** More words the search finds it by (another name of the icon). */
  keywords?: string;
  icon: IconComponent;
}

/** The icons whose name, value or keywords hold the search (case-insensitive); all for none. */
export function filterIcons(icons: readonly IconChoice[], search: string): IconChoice[] {
  const words = search.trim().toLowerCase();
  if (!words) return [...icons];
  return icons.filter((c) => [c.name, c.value, c.keywords ?? ''].some((t) => t.toLowerCase().includes(words)));
}

/** The choice a stored value names, if the picker has it. */
export const iconOf = (icons: readonly IconChoice[] | undefined, value: unknown): IconChoice | undefined =>
  icons?.find((c) => c.value === String(value ?? '').trim());

/** The icon a stored value shows: its choice's, else what the column's `iconFor` makes of it. */
export const iconComponent = (column: CrudColumn, value: unknown): IconComponent | undefined => {
  const text = String(value ?? '').trim();
  if (!text) return undefined;
  return iconOf(column.icons, text)?.icon ?? column.iconFor?.(text);
};

/** A cell's text: the column's field, or in a language of `localized` the row's field for it when it has one. */
export function cellText(column: CrudColumn, row: CrudRecord, language: string): string {
  const own = column.localized?.[language.split('-')[0] ?? ''];
  const local = own ? row[own] : undefined;
  return String((typeof local === 'string' && local.trim() ? local : row[column.prop]) ?? '');
}
