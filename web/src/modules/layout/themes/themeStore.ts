import { PRIMARY_COLOR } from '../../../config/constants';
import { createStore } from '../../../lib/createStore';
import { readStore, writeStore } from '../../../lib/storage';
import { isHexColor } from './palette';
import { isThemeName, type ThemeName } from './themes';

/** The chosen look and colour, persisted (`sprout-theme`, `sprout-color`). */
export interface Appearance {
  theme: ThemeName;
  color: string;
}

const KEYS = { theme: 'theme', color: 'color' } as const;

function readAppearance(): Appearance {
  const theme = readStore(KEYS.theme);
  const color = readStore(KEYS.color);
  return {
    theme: isThemeName(theme) ? theme : 'default',
    color: isHexColor(color) ? color : PRIMARY_COLOR,
  };
}

export const appearanceStore = createStore<Appearance>(readAppearance());

export function setTheme(theme: ThemeName): void {
  writeStore(KEYS.theme, theme);
  appearanceStore.set((prev) => ({ ...prev, theme }));
}

export function setColor(color: string): void {
  if (!isHexColor(color)) return;
  writeStore(KEYS.color, color);
  appearanceStore.set((prev) => ({ ...prev, color }));
}
