import { describe, expect, it } from 'vitest';
import { inlineParameters, literal } from './inline';

describe('literal', () => {
  it('quotes strings so no value can end the literal', () => {
    expect(literal("O'Brien")).toBe("'O''Brien'");
    expect(literal("a\\'; drop table x; --")).toBe(" E'a\\\\''; drop table x; --'");
    expect(literal('你好')).toBe("'你好'");
    expect(() => literal('a\u0000b')).toThrow(/NUL/);
  });

  it('renders numbers, booleans, null, dates, json and arrays', () => {
    expect(literal(42)).toBe('42');
    expect(literal(10n ** 18n)).toBe('1000000000000000000');
    expect(literal(true)).toBe('TRUE');
    expect(literal(null)).toBe('NULL');
    expect(literal(new Date('2026-01-02T03:04:05Z'))).toBe("'2026-01-02T03:04:05.000Z'::timestamptz");
    expect(literal({ a: "it's" })).toBe(`'{"a":"it''s"}'`);
    expect(literal(['a', 'b', null])).toBe(`'{"a","b",NULL}'`);
    expect(literal(['b"c'])).toBe(` E'{"b\\\\"c"}'`);
    expect(() => literal(Number.NaN)).toThrow();
  });

  it('replaces every placeholder, $10 after $1', () => {
    const params = Array.from({ length: 11 }, (_, i) => i + 1);
    const sql = params.map((_, i) => `$${i + 1}`).join(',');
    expect(inlineParameters({ sql, parameters: params })).toBe(params.join(','));
    expect(() => inlineParameters({ sql: 'select $2', parameters: [1] })).toThrow(/no parameter/);
  });
});
