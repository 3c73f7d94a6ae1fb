import { describe, expect, it } from 'vitest';
import { formatDateTime, parseDateTime } from './time';

describe('time', () => {
  it('formats as yyyy-MM-dd HH:mm:ss in the zone', () => {
    const d = new Date('2026-11-21T16:05:09Z');
    expect(formatDateTime(d, 'Asia/Shanghai')).toBe('2026-11-22 00:05:09');
    expect(formatDateTime(d, 'UTC')).toBe('2026-11-21 16:05:09');
    expect(formatDateTime(null, 'UTC')).toBeNull();
  });

  it('parses wall time in the zone and round-trips', () => {
    const d = parseDateTime('2026-11-22 00:05:09', 'Asia/Shanghai');
    expect(d?.toISOString()).toBe('2026-11-21T16:05:09.000Z');
    expect(parseDateTime('2026-03-08 02:30', 'America/New_York')).toBeInstanceOf(Date);
    expect(parseDateTime('2026-01-01', 'UTC')?.toISOString()).toBe('2026-01-01T00:00:00.000Z');
  });

  it('refuses malformed and impossible times', () => {
    for (const bad of ['2026-02-30 00:00:00', '2026-13-01', 'yesterday', '2026-01-01 24:00:00', '']) {
      expect(parseDateTime(bad, 'UTC'), bad).toBeUndefined();
    }
  });
});
