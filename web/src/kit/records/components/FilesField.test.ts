import { describe, expect, it } from 'vitest';
import { sizeLabel, totalOfRange } from './FilesField';

describe('an attachment’s facts', () => {
  it('reads the whole size from a one-byte range answer', () => {
    expect(totalOfRange('bytes 0-0/48')).toBe(48);
    expect(totalOfRange('bytes */1234')).toBe(1234);
    expect(totalOfRange(null)).toBeNull();
    expect(totalOfRange('bytes 0-0/*')).toBeNull();
  });
  it('shows sizes as people read them', () => {
    expect(sizeLabel(48)).toBe('48 B');
    expect(sizeLabel(2048)).toBe('2.0 KB');
    expect(sizeLabel(20 * 1024)).toBe('20 KB');
    expect(sizeLabel(5.5 * 1024 * 1024)).toBe('5.5 MB');
  });
});
