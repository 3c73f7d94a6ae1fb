import { describe, expect, it } from 'vitest';
import { alpha, isHexColor, paletteFrom } from './palette';

describe('paletteFrom', () => {
  it('puts the colour at the primary shade with lighter tints before and darker shades after', () => {
    const p = paletteFrom('#409EFF');
    expect(p).toHaveLength(10);
    expect(p[6]).toBe('#409eff');
    const lum = (h: string) =>
      Number.parseInt(h.slice(1, 3), 16) + Number.parseInt(h.slice(3, 5), 16) + Number.parseInt(h.slice(5, 7), 16);
    for (let i = 1; i < 10; i++) expect(lum(p[i] as string)).toBeLessThan(lum(p[i - 1] as string));
  });

  it('falls back to the default colour for junk', () => {
    expect(paletteFrom('blue')[6]).toBe('#409eff');
    expect(isHexColor('#12ab9F')).toBe(true);
    expect(isHexColor('#12ab9')).toBe(false);
    expect(alpha('#000000', 50)).toBe('rgb(0 0 0 / 50%)');
  });
});
