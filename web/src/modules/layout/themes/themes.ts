import {
  type CSSVariablesResolver,
  createTheme,
  type MantineColorsTuple,
  type MantineRadius,
  type MantineThemeOverride,
} from '@mantine/core';
import { paletteFrom } from './palette';

/** Spec §2 Themes, in Saber's order (`bule` is its spelling of blue). */
export const THEME_NAMES = [
  'default',
  'white',
  'dark',
  'star',
  'bule',
  'iview',
  'vip',
  'cool',
  'd2',
  'hey',
  'lte',
] as const;
export type ThemeName = (typeof THEME_NAMES)[number];

export function isThemeName(value: unknown): value is ThemeName {
  return typeof value === 'string' && (THEME_NAMES as readonly string[]).includes(value);
}

/** Colours of the frame around the pages (sidebar, top bar, tab bar, canvas). */
export interface Chrome {
  sidebarBg: string;
  sidebarText: string;
  sidebarMuted: string;
  sidebarHoverBg: string;
  sidebarActiveBg: string;
  sidebarActiveText: string;
  sidebarBorder: string;
  logoBg: string;
  logoText: string;
  headerBg: string;
  headerText: string;
  headerBorder: string;
  headerShadow: string;
  bodyBg: string;
  tabsBg: string;
  tabText: string;
  tabActiveBg: string;
  tabActiveText: string;
  tabBorder: string;
  cardBg: string;
  cardBorder: string;
  cardShadow: string;
  /** The home banner and other feature headers. */
  heroBg: string;
  heroText: string;
}

export interface ThemeDef {
  name: ThemeName;
  scheme: 'light' | 'dark';
  radius: MantineRadius;
  /** Two colours for the theme picker's preview (sidebar, header). */
  swatch: [string, string];
  chrome: Chrome;
  /** Component defaults that give the theme its feel. */
  components?: MantineThemeOverride['components'];
  fontFamily?: string;
}

const P = 'var(--mantine-primary-color-filled)';
const PL = 'var(--mantine-primary-color-light)';
const PT = 'var(--mantine-primary-color-light-color)';

const baseLight: Chrome = {
  sidebarBg: '#1d2533',
  sidebarText: 'rgb(255 255 255 / 72%)',
  sidebarMuted: 'rgb(255 255 255 / 45%)',
  sidebarHoverBg: 'rgb(255 255 255 / 6%)',
  sidebarActiveBg: P,
  sidebarActiveText: '#ffffff',
  sidebarBorder: 'transparent',
  logoBg: '#19202c',
  logoText: '#ffffff',
  headerBg: '#ffffff',
  headerText: '#303133',
  headerBorder: '#eef0f4',
  headerShadow: '0 1px 4px rgb(0 21 41 / 8%)',
  bodyBg: '#f3f5f9',
  tabsBg: '#ffffff',
  tabText: '#5b6472',
  tabActiveBg: PL,
  tabActiveText: PT,
  tabBorder: '#eef0f4',
  cardBg: '#ffffff',
  cardBorder: '#edf0f5',
  cardShadow: '0 1px 2px rgb(16 24 40 / 4%), 0 4px 14px rgb(16 24 40 / 5%)',
  heroBg:
    'radial-gradient(circle at 90% 10%, rgb(255 255 255 / 18%) 0%, transparent 40%), linear-gradient(120deg, var(--mantine-primary-color-5) 0%, var(--mantine-primary-color-8) 100%)',
  heroText: '#ffffff',
};

export const THEMES: Record<ThemeName, ThemeDef> = {
  default: {
    name: 'default',
    scheme: 'light',
    radius: 'md',
    swatch: ['#1d2533', '#ffffff'],
    chrome: baseLight,
  },
  white: {
    name: 'white',
    scheme: 'light',
    radius: 'md',
    swatch: ['#ffffff', '#ffffff'],
    chrome: {
      ...baseLight,
      sidebarBg: '#ffffff',
      sidebarText: '#4b5563',
      sidebarMuted: '#9aa3af',
      sidebarHoverBg: '#f3f5f8',
      sidebarActiveBg: PL,
      sidebarActiveText: PT,
      sidebarBorder: '#eef0f4',
      logoBg: '#ffffff',
      logoText: '#1f2937',
      headerShadow: 'none',
      bodyBg: '#f7f8fa',
      heroBg: 'linear-gradient(120deg, #ffffff 0%, var(--mantine-primary-color-0) 100%)',
      heroText: '#1f2937',
    },
    components: { Card: { defaultProps: { withBorder: true, shadow: 'none' } } },
  },
  dark: {
    name: 'dark',
    scheme: 'dark',
    radius: 'md',
    swatch: ['#141517', '#1f2023'],
    chrome: {
      sidebarBg: '#141517',
      sidebarText: '#a6a7ab',
      sidebarMuted: '#6b6d72',
      sidebarHoverBg: 'rgb(255 255 255 / 5%)',
      sidebarActiveBg: PL,
      sidebarActiveText: '#ffffff',
      sidebarBorder: '#25262b',
      logoBg: '#141517',
      logoText: '#f1f3f5',
      headerBg: '#1a1b1e',
      headerText: '#e9ecef',
      headerBorder: '#2c2e33',
      headerShadow: 'none',
      bodyBg: '#101113',
      tabsBg: '#1a1b1e',
      tabText: '#a6a7ab',
      tabActiveBg: PL,
      tabActiveText: '#ffffff',
      tabBorder: '#2c2e33',
      cardBg: '#1a1b1e',
      cardBorder: '#2c2e33',
      cardShadow: 'none',
      heroBg:
        'radial-gradient(circle at 90% 10%, rgb(255 255 255 / 6%) 0%, transparent 40%), linear-gradient(120deg, #22303f 0%, #17212c 100%)',
      heroText: '#e9ecef',
    },
  },
  star: {
    name: 'star',
    scheme: 'light',
    radius: 'lg',
    swatch: ['#1b1742', '#2c2468'],
    chrome: {
      ...baseLight,
      sidebarBg:
        'radial-gradient(1px 1px at 20% 30%, rgb(255 255 255 / 70%) 50%, transparent 51%), radial-gradient(1px 1px at 70% 12%, rgb(255 255 255 / 60%) 50%, transparent 51%), radial-gradient(1.5px 1.5px at 40% 70%, rgb(255 255 255 / 55%) 50%, transparent 51%), radial-gradient(1px 1px at 85% 55%, rgb(255 255 255 / 50%) 50%, transparent 51%), radial-gradient(1px 1px at 12% 88%, rgb(255 255 255 / 45%) 50%, transparent 51%), linear-gradient(180deg, #0f0c29 0%, #302b63 60%, #24243e 100%)',
      sidebarText: 'rgb(226 224 255 / 78%)',
      sidebarMuted: 'rgb(226 224 255 / 45%)',
      sidebarHoverBg: 'rgb(255 255 255 / 8%)',
      sidebarActiveBg: 'linear-gradient(90deg, rgb(139 124 255 / 55%), rgb(139 124 255 / 15%))',
      sidebarActiveText: '#ffffff',
      logoBg: 'transparent',
      headerBg: 'linear-gradient(90deg, #1b1742 0%, #2c2468 100%)',
      headerText: '#ece9ff',
      headerBorder: 'transparent',
      headerShadow: '0 2px 12px rgb(27 23 66 / 35%)',
      bodyBg: '#f3f2fb',
      tabsBg: '#faf9ff',
      tabActiveBg: 'rgb(139 124 255 / 14%)',
      tabActiveText: '#4a3fb8',
      tabBorder: '#e7e4f7',
      cardBorder: '#ebe8f8',
      cardShadow: '0 4px 18px rgb(48 43 99 / 8%)',
      heroBg:
        'radial-gradient(1.5px 1.5px at 12% 30%, rgb(255 255 255 / 80%) 50%, transparent 51%), radial-gradient(1px 1px at 32% 70%, rgb(255 255 255 / 70%) 50%, transparent 51%), radial-gradient(1px 1px at 58% 22%, rgb(255 255 255 / 70%) 50%, transparent 51%), radial-gradient(1.5px 1.5px at 78% 60%, rgb(255 255 255 / 60%) 50%, transparent 51%), linear-gradient(120deg, #1b1742 0%, #3b2f8f 60%, #5a4bd1 100%)',
      heroText: '#ffffff',
    },
  },
  bule: {
    name: 'bule',
    scheme: 'light',
    radius: 'md',
    swatch: ['#1e5bd8', '#ffffff'],
    chrome: {
      ...baseLight,
      sidebarBg: 'linear-gradient(180deg, #2162e6 0%, #1442a8 100%)',
      sidebarText: 'rgb(255 255 255 / 80%)',
      sidebarMuted: 'rgb(255 255 255 / 55%)',
      sidebarHoverBg: 'rgb(255 255 255 / 10%)',
      sidebarActiveBg: 'rgb(255 255 255 / 20%)',
      sidebarActiveText: '#ffffff',
      logoBg: 'rgb(0 0 0 / 10%)',
      bodyBg: '#eff4fd',
      tabActiveBg: '#e5eefc',
      tabActiveText: '#1a4fc4',
      heroBg: 'linear-gradient(120deg, #2162e6 0%, #1442a8 100%)',
      heroText: '#ffffff',
    },
  },
  iview: {
    name: 'iview',
    scheme: 'light',
    radius: 'sm',
    swatch: ['#515a6e', '#ffffff'],
    chrome: {
      ...baseLight,
      sidebarBg: '#515a6e',
      sidebarText: 'rgb(255 255 255 / 75%)',
      sidebarMuted: 'rgb(255 255 255 / 50%)',
      sidebarHoverBg: '#363e4f',
      sidebarActiveBg: P,
      logoBg: '#464e61',
      bodyBg: '#f5f7f9',
      tabsBg: '#f0f0f0',
      tabActiveBg: '#ffffff',
      tabActiveText: PT,
      cardShadow: 'none',
      heroBg: 'linear-gradient(120deg, #2d8cf0 0%, #5cadff 100%)',
      heroText: '#ffffff',
    },
    components: { Card: { defaultProps: { withBorder: true, shadow: 'none' } } },
  },
  vip: {
    name: 'vip',
    scheme: 'light',
    radius: 'sm',
    swatch: ['#17140f', '#c9a45c'],
    chrome: {
      ...baseLight,
      sidebarBg: 'linear-gradient(180deg, #1c1914 0%, #110f0b 100%)',
      sidebarText: '#d8c08a',
      sidebarMuted: '#8d7a52',
      sidebarHoverBg: 'rgb(216 192 138 / 8%)',
      sidebarActiveBg: 'linear-gradient(90deg, #c9a45c, #e7cf97)',
      sidebarActiveText: '#231c0e',
      logoBg: '#110f0b',
      logoText: '#e7cf97',
      headerBg: '#1c1914',
      headerText: '#e7cf97',
      headerBorder: '#2c261b',
      headerShadow: '0 2px 10px rgb(0 0 0 / 25%)',
      bodyBg: '#f6f3ec',
      tabsBg: '#fbf9f4',
      tabText: '#6f6146',
      tabActiveBg: '#f1e6cc',
      tabActiveText: '#7a5a17',
      tabBorder: '#ece3cf',
      cardBorder: '#ece3cf',
      heroBg:
        'radial-gradient(circle at 88% 15%, rgb(231 207 151 / 25%) 0%, transparent 40%), linear-gradient(120deg, #1c1914 0%, #3a2f1c 100%)',
      heroText: '#e7cf97',
    },
  },
  cool: {
    name: 'cool',
    scheme: 'light',
    radius: 'lg',
    swatch: ['#ffffff', '#0093e9'],
    chrome: {
      ...baseLight,
      sidebarBg: '#ffffff',
      sidebarText: '#3d5363',
      sidebarMuted: '#93a5b1',
      sidebarHoverBg: '#eef8fa',
      sidebarActiveBg: 'linear-gradient(90deg, #0093e9 0%, #52c0d5 100%)',
      sidebarActiveText: '#ffffff',
      sidebarBorder: '#e3f0f3',
      logoBg: 'linear-gradient(90deg, #0093e9 0%, #3fb1e0 100%)',
      headerBg: 'linear-gradient(90deg, #0093e9 0%, #80d0c7 100%)',
      headerText: '#ffffff',
      headerBorder: 'transparent',
      headerShadow: '0 4px 16px rgb(0 147 233 / 25%)',
      bodyBg: '#eef6f8',
      tabActiveBg: '#e0f3f8',
      tabActiveText: '#0a79b8',
      cardShadow: '0 6px 20px rgb(0 110 160 / 8%)',
      heroBg: 'linear-gradient(120deg, #0093e9 0%, #80d0c7 100%)',
      heroText: '#ffffff',
    },
  },
  d2: {
    name: 'd2',
    scheme: 'light',
    radius: 'md',
    swatch: ['#ebf1f6', '#ebf1f6'],
    chrome: {
      ...baseLight,
      sidebarBg: 'transparent',
      sidebarText: '#2f3d4a',
      sidebarMuted: '#8796a5',
      sidebarHoverBg: 'rgb(255 255 255 / 60%)',
      sidebarActiveBg: '#ffffff',
      sidebarActiveText: PT,
      logoBg: 'transparent',
      logoText: '#2f3d4a',
      headerBg: 'transparent',
      headerBorder: 'transparent',
      headerShadow: 'none',
      bodyBg:
        'radial-gradient(circle at 1px 1px, rgb(47 61 74 / 7%) 1px, transparent 0) 0 0 / 18px 18px, linear-gradient(160deg, #eef3f8 0%, #e6edf4 100%)',
      tabsBg: 'transparent',
      tabActiveBg: '#ffffff',
      tabBorder: 'transparent',
      cardShadow: '0 2px 10px rgb(47 61 74 / 6%)',
      heroBg: 'radial-gradient(circle at 1px 1px, rgb(47 61 74 / 8%) 1px, transparent 0) 0 0 / 14px 14px, #ffffff',
      heroText: '#2f3d4a',
    },
  },
  hey: {
    name: 'hey',
    scheme: 'light',
    radius: 'xl',
    swatch: ['#fff4ec', '#ff7e5f'],
    fontFamily:
      '"Nunito", "PingFang SC", "Hiragino Sans GB", "Microsoft YaHei", "Noto Sans SC", "Noto Sans CJK SC", system-ui, sans-serif',
    chrome: {
      ...baseLight,
      sidebarBg: '#fff7f1',
      sidebarText: '#6b4b3e',
      sidebarMuted: '#b08d7f',
      sidebarHoverBg: '#ffeadd',
      sidebarActiveBg: 'linear-gradient(90deg, #ff7e5f 0%, #feb47b 100%)',
      sidebarActiveText: '#ffffff',
      sidebarBorder: '#ffe6d6',
      logoBg: '#fff7f1',
      logoText: '#d4533a',
      headerBorder: '#ffe9dc',
      headerShadow: 'none',
      bodyBg: '#fffaf6',
      tabActiveBg: '#ffe9dc',
      tabActiveText: '#c8482d',
      tabBorder: '#ffe9dc',
      cardBorder: '#ffe9dc',
      cardShadow: '0 8px 24px rgb(255 126 95 / 8%)',
      heroBg: 'linear-gradient(120deg, #ff7e5f 0%, #feb47b 100%)',
      heroText: '#ffffff',
    },
    components: { Button: { defaultProps: { radius: 'xl' } } },
  },
  lte: {
    name: 'lte',
    scheme: 'light',
    radius: 'sm',
    swatch: ['#343a40', '#3c8dbc'],
    chrome: {
      ...baseLight,
      sidebarBg: '#343a40',
      sidebarText: '#c2c7d0',
      sidebarMuted: '#868e96',
      sidebarHoverBg: 'rgb(255 255 255 / 10%)',
      sidebarActiveBg: '#007bff',
      logoBg: '#343a40',
      sidebarBorder: '#4b545c',
      headerBg: '#ffffff',
      headerBorder: '#dee2e6',
      headerShadow: 'none',
      bodyBg: '#f4f6f9',
      tabActiveBg: '#e9f2fb',
      tabActiveText: '#0062cc',
      cardBorder: 'transparent',
      cardShadow: '0 0 1px rgb(0 0 0 / 13%), 0 1px 3px rgb(0 0 0 / 20%)',
      heroBg: 'linear-gradient(120deg, #3c8dbc 0%, #367fa9 100%)',
      heroText: '#ffffff',
    },
  },
};

/** Soft sprout greens for accents and illustrations. */
const leaf: MantineColorsTuple = [
  '#f0f9eb',
  '#e1f3d8',
  '#c9ebb6',
  '#b3e19d',
  '#95d475',
  '#7ac95a',
  '#67c23a',
  '#529b2e',
  '#437f26',
  '#32601c',
];

export const FONT_FAMILY =
  '-apple-system, BlinkMacSystemFont, "Segoe UI", "PingFang SC", "Hiragino Sans GB", "Microsoft YaHei", "Noto Sans SC", "Noto Sans CJK SC", "Source Han Sans SC", Roboto, "Helvetica Neue", Arial, sans-serif';

/** The Mantine theme for a look and a primary colour. */
export function buildMantineTheme(def: ThemeDef, color: string) {
  const fontFamily = def.fontFamily ?? FONT_FAMILY;
  return createTheme({
    colors: { brand: paletteFrom(color), leaf },
    primaryColor: 'brand',
    primaryShade: { light: 6, dark: 6 },
    fontFamily,
    headings: { fontFamily, fontWeight: '600' },
    defaultRadius: def.radius,
    cursorType: 'pointer',
    // A user who asks her system for less motion gets it: Mantine's transitions end at once.
    respectReducedMotion: true,
    components: {
      Card: { defaultProps: { shadow: 'xs', radius: def.radius } },
      ...def.components,
    },
    other: { themeName: def.name },
  });
}

const CHROME_VARS: Record<keyof Chrome, string> = {
  sidebarBg: '--sp-sidebar-bg',
  sidebarText: '--sp-sidebar-text',
  sidebarMuted: '--sp-sidebar-muted',
  sidebarHoverBg: '--sp-sidebar-hover-bg',
  sidebarActiveBg: '--sp-sidebar-active-bg',
  sidebarActiveText: '--sp-sidebar-active-text',
  sidebarBorder: '--sp-sidebar-border',
  logoBg: '--sp-logo-bg',
  logoText: '--sp-logo-text',
  headerBg: '--sp-header-bg',
  headerText: '--sp-header-text',
  headerBorder: '--sp-header-border',
  headerShadow: '--sp-header-shadow',
  bodyBg: '--sp-body-bg',
  tabsBg: '--sp-tabs-bg',
  tabText: '--sp-tab-text',
  tabActiveBg: '--sp-tab-active-bg',
  tabActiveText: '--sp-tab-active-text',
  tabBorder: '--sp-tab-border',
  cardBg: '--sp-card-bg',
  cardBorder: '--sp-card-border',
  cardShadow: '--sp-card-shadow',
  heroBg: '--sp-hero-bg',
  heroText: '--sp-hero-text',
};

/** The frame's colours as CSS variables on :root (Mantine injects them). */
export function chromeResolver(def: ThemeDef): CSSVariablesResolver {
  const variables: Record<string, string> = {};
  for (const [key, name] of Object.entries(CHROME_VARS)) variables[name] = def.chrome[key as keyof Chrome];
  return () => ({ variables, light: {}, dark: {} });
}
