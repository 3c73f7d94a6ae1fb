import type { MantineColorsTuple } from '@mantine/core';

const HEX = /^#([0-9a-f]{6})$/i;

export function isHexColor(value: unknown): value is string {
  return typeof value === 'string' && HEX.test(value.trim());
}

function channels(hex: string): [number, number, number] {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

function toHex([r, g, b]: [number, number, number]): string {
  return `#${[r, g, b]
    .map((c) =>
      Math.round(Math.min(255, Math.max(0, c)))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

function mix(hex: string, with_: [number, number, number], amount: number): string {
  const c = channels(hex);
  return toHex(
    [0, 1, 2].map((i) => (c[i] ?? 0) + ((with_[i] ?? 0) - (c[i] ?? 0)) * amount) as [number, number, number],
  );
}

/**
 * Ten shades around a colour for Mantine, the colour itself at index 6 (the primary
 * shade): lighter tints towards white before it, darker shades after it.
 */
export function paletteFrom(hex: string): MantineColorsTuple {
  const base = isHexColor(hex) ? hex.toLowerCase() : '#409eff';
  const white: [number, number, number] = [255, 255, 255];
  const black: [number, number, number] = [0, 0, 0];
  return [
    mix(base, white, 0.92),
    mix(base, white, 0.84),
    mix(base, white, 0.7),
    mix(base, white, 0.52),
    mix(base, white, 0.34),
    mix(base, white, 0.16),
    base,
    mix(base, black, 0.16),
    mix(base, black, 0.3),
    mix(base, black, 0.46),
  ];
}

/** `rgb(r g b / a%)` of a hex colour, for translucent chrome. */
export function alpha(hex: string, percent: number): string {
  const [r, g, b] = channels(isHexColor(hex) ? hex : '#409eff');
  return `rgb(${r} ${g} ${b} / ${percent}%)`;
}
