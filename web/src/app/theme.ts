import { createTheme, type MantineColorsTuple } from '@mantine/core';

/** Ten shades around the default colour #409EFF (shade 6, the primary shade). */
const brand: MantineColorsTuple = [
  '#ecf5ff',
  '#d9ecff',
  '#c6e2ff',
  '#a0cfff',
  '#79bbff',
  '#5aabff',
  '#409eff',
  '#337ecc',
  '#2b6aad',
  '#1f4f82',
];

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

const fontFamily =
  '-apple-system, BlinkMacSystemFont, "Segoe UI", "PingFang SC", "Hiragino Sans GB", "Microsoft YaHei", "Noto Sans SC", "Noto Sans CJK SC", "Source Han Sans SC", Roboto, "Helvetica Neue", Arial, sans-serif';

export const theme = createTheme({
  colors: { brand, leaf },
  primaryColor: 'brand',
  primaryShade: { light: 6, dark: 5 },
  fontFamily,
  headings: { fontFamily, fontWeight: '600' },
  defaultRadius: 'md',
  cursorType: 'pointer',
});
