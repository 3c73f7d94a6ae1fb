import type { FastifyReply } from 'fastify';
import { describe, expect, it } from 'vitest';
import { attachment } from './attachment';

function disposition(name: string) {
  const headers: Record<string, string> = {};
  const reply = {
    header(k: string, v: string) {
      headers[k] = v;
      return reply;
    },
  } as unknown as FastifyReply;
  attachment(reply, name, 'application/octet-stream');
  return headers['content-disposition'] ?? '';
}

describe('export file names', () => {
  it('keep Chinese names intact and drop bidirectional controls that would disguise the extension', () => {
    expect(decodeURIComponent(disposition('小一班-第3周.docx').split("UTF-8''")[1] ?? '')).toBe('小一班-第3周.docx');
    // Displayed as "小一班-xcod.exe.png" with the override kept.
    const d = disposition('小一班-\u202Egnp.exe.docx');
    expect(decodeURIComponent(d.split("UTF-8''")[1] ?? '')).toBe('小一班-gnp.exe.docx');
    for (const c of [
      '\u200e',
      '\u200f',
      '\u061c',
      '\u202a',
      '\u202b',
      '\u202c',
      '\u202d',
      '\u2066',
      '\u2067',
      '\u2068',
      '\u2069',
    ])
      expect(decodeURIComponent(disposition(`a${c}b.docx`).split("UTF-8''")[1] ?? '')).toBe('ab.docx');
  });
});
