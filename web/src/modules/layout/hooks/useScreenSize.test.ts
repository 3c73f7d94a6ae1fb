import { describe, expect, it } from 'vitest';
import { screenSizeOf } from './useScreenSize';

describe('screenSizeOf (spec §4)', () => {
  it('classifies widths at the 768 / 992 / 1200 breakpoints', () => {
    expect(screenSizeOf(375)).toBe(0);
    expect(screenSizeOf(767)).toBe(0);
    expect(screenSizeOf(768)).toBe(1);
    expect(screenSizeOf(991)).toBe(1);
    expect(screenSizeOf(992)).toBe(2);
    expect(screenSizeOf(1199)).toBe(2);
    expect(screenSizeOf(1200)).toBe(3);
  });
});
