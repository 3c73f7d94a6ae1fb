import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { lazySerializerCompiler, okSchema, pageSchema } from './serialization';

// The writers the app uses (compiled on first use).
const { compiler: zodSerializerCompiler } = lazySerializerCompiler();

const Row = z.object({
  id: z.string(),
  phone: z.string(),
  sex: z.number().int().nullable(),
  note: z.string().nullable(),
});
const write = zodSerializerCompiler({ schema: okSchema(pageSchema(Row)), method: 'GET', url: '/x', httpStatus: '200' });
const body = (records: unknown[]) => ({
  code: 200,
  success: true,
  msg: '操作成功',
  data: { records, total: 1, size: 10, current: 1, pages: 1 },
});

describe('answers written from the response schema', () => {
  it('equal JSON.stringify for a row the schema names in full', () => {
    const b = body([{ id: '1', phone: '13800000000', sex: null, note: '备注 "quoted" \u2028' }]);
    expect(JSON.parse(write(b))).toEqual(b);
  });

  it('leave out a field nobody may see (a field rule took it away) instead of failing', () => {
    const out = JSON.parse(write(body([{ id: '1', sex: 1, note: null }])));
    expect(out.data.records[0]).toEqual({ id: '1', sex: 1, note: null });
    expect('phone' in out.data.records[0]).toBe(false);
  });

  it('never send a field the schema does not name', () => {
    const out = write(body([{ id: '1', phone: '1', sex: 2, note: null, password_hash: '$argon2id$secret' }]));
    expect(out).not.toContain('argon2');
    expect(out).not.toContain('password_hash');
  });

  it('keep an answer field named like a JSON Schema keyword', () => {
    const w = zodSerializerCompiler({
      schema: okSchema(z.object({ required: z.boolean(), $schema: z.string() })),
      method: 'GET',
      url: '/y',
      httpStatus: '200',
    });
    const b = { code: 200, success: true, msg: 'ok', data: { required: true, $schema: 'x' } };
    expect(JSON.parse(w(b))).toEqual(b);
  });
});
