import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, formatDateTime, isoInZone, localDate, mondayOf, notAfter, parseDateTime } from './time';

describe('time', () => {
  it('formats as yyyy-MM-dd HH:mm:ss in the zone', () => {
    const d = new Date('2026-11-21T16:05:09Z');
    expect(formatDateTime(d, 'Asia/Shanghai')).toBe('2026-11-22 00:05:09');
    expect(formatDateTime(d, 'UTC')).toBe('2026-11-21 16:05:09');
    expect(formatDateTime(null, 'UTC')).toBeNull();
  });

  it('formats any instant as Intl shows its wall time, across days, zones and DST changes', () => {
    const intl = (d: Date, timeZone: string) => {
      const parts: Record<string, string> = {};
      const f = new Intl.DateTimeFormat('en-CA', {
        timeZone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
        hourCycle: 'h23',
      });
      for (const p of f.formatToParts(d)) parts[p.type] = p.value;
      return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
    };
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1971-01-01'), max: new Date('2099-12-31'), noInvalidDate: true }),
        fc.constantFrom('Asia/Shanghai', 'UTC', 'America/New_York', 'Europe/London', 'Asia/Kolkata', 'Pacific/Chatham'),
        (d, zone) => {
          expect(formatDateTime(d, zone)).toBe(intl(d, zone));
        },
      ),
      { numRuns: 2000 },
    );
    // Every minute of the days a zone changes its offset (the spans holding a change are looked up per quarter hour).
    for (const [zone, day] of [
      ['America/New_York', '2026-03-08'],
      ['America/New_York', '2026-11-01'],
      ['Europe/London', '2026-03-29'],
      ['Pacific/Chatham', '2026-04-05'],
    ] as const) {
      const from = Date.parse(`${day}T00:00:00Z`) - 86_400_000;
      for (let ms = from; ms < from + 3 * 86_400_000; ms += 60_000)
        expect(formatDateTime(new Date(ms), zone)).toBe(intl(new Date(ms), zone));
    }
    expect(formatDateTime(new Date('2026-11-21T15:59:59.999Z'), 'Asia/Shanghai')).toBe('2026-11-21 23:59:59');
    expect(formatDateTime(new Date('1969-12-31T23:59:59.500Z'), 'UTC')).toBe('1969-12-31 23:59:59');
    expect(formatDateTime(new Date(Number.NaN), 'UTC')).toBeNull();
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

describe('isoInZone, localDate, addDays, mondayOf', () => {
  it('writes wall time with the offset, so the first ten characters are the local date', async () => {
    const d = new Date('2026-11-22T17:30:00Z'); // Monday 01:30 in Shanghai
    expect(isoInZone(d, 'Asia/Shanghai')).toBe('2026-11-23T01:30:00+08:00');
    expect(localDate(d, 'Asia/Shanghai')).toBe('2026-11-23');
    expect(isoInZone(d, 'America/New_York')).toBe('2026-11-22T12:30:00-05:00');
    expect(new Date(isoInZone(d, 'Asia/Kolkata')).getTime()).toBe(d.getTime());
  });
  it('adds days across months and years, and finds the Monday', async () => {
    expect(addDays('2026-12-28', 7)).toBe('2027-01-04');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(mondayOf('2026-11-22')).toBe('2026-11-16'); // a Sunday
    expect(mondayOf('2026-11-16')).toBe('2026-11-16');
    expect(mondayOf('2026-11-21')).toBe('2026-11-16');
  });
});

describe('notAfter', () => {
  it('keeps past times, moves future ones into the hour before now, in their order', () => {
    const now = new Date('2026-11-26T04:00:00Z');
    const past = new Date('2026-11-25T04:00:00Z');
    expect(notAfter(past, now)).toEqual(past);
    const soon = notAfter(new Date('2026-11-26T05:00:00Z'), now);
    const later = notAfter(new Date('2026-11-28T05:00:00Z'), now);
    for (const d of [soon, later]) {
      expect(d.getTime()).toBeLessThan(now.getTime());
      expect(d.getTime()).toBeGreaterThan(now.getTime() - 3_600_000);
    }
    expect(later.getTime()).toBeGreaterThan(soon.getTime());
  });
});
