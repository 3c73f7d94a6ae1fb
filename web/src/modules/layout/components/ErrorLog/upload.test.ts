import { describe, expect, it } from 'vitest';
import { forUpload, UPLOAD_LIMITS } from './upload';

const entry = {
  type: 'error',
  message: 'm',
  stack: 'Error: m\n\tat a (x.js:1:2)',
  info: '',
  url: '/home',
  time: '2026-11-26 08:00:00',
};

describe('the error log as uploaded', () => {
  it('keeps the newest 200 entries with their six fields, stack lines and tabs intact', () => {
    const out = forUpload(Array.from({ length: 250 }, (_, i) => ({ ...entry, message: `m${i}` })));
    expect(out).toHaveLength(200);
    expect(out[0]).toEqual({ ...entry, message: 'm0' });
    expect(out[199]?.message).toBe('m199');
  });

  it('caps each field at what the server keeps and drops control characters', () => {
    const [out] = forUpload([
      { ...entry, message: `a\u0000b\u001bc${'x'.repeat(5000)}`, stack: 's'.repeat(20_000), url: 'u'.repeat(3000) },
    ]);
    expect(out?.message.startsWith('abc')).toBe(true);
    expect(out?.message.length).toBeLessThanOrEqual(UPLOAD_LIMITS.message);
    expect(out?.stack).toHaveLength(UPLOAD_LIMITS.stack);
    expect(out?.url).toHaveLength(UPLOAD_LIMITS.url);
  });
});
