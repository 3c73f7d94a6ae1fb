import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findForbiddenText, isAllowedText, stripForbiddenText } from './text';

const forbidden = fc.oneof(
  fc.integer({ min: 0, max: 0x1f }).filter((c) => c !== 0x09 && c !== 0x0a && c !== 0x0d),
  fc.integer({ min: 0xd800, max: 0xdfff }),
  fc.constantFrom(0xfffe, 0xffff),
);
/** Text the rule allows: any Unicode scalar values (surrogate pairs included) but the forbidden ones. */
const allowed = (c: number) => (c >= 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) && c !== 0xfffe && c !== 0xffff;
const clean = fc
  .string({ unit: 'grapheme' })
  .map((s) => [...s].filter((ch) => allowed(ch.codePointAt(0) as number)).join(''));

describe('the text rule', () => {
  it('allows tabs, line breaks, Chinese and surrogate pairs; refuses NUL, other controls, lone surrogates', () => {
    expect(isAllowedText('周明\t第一周\r\n😀 ok')).toBe(true);
    for (const bad of ['\u0000', 'a\u0001', '\u000b', '\u001f', '\ud800', 'x\udc00', '\ud83d', '\ufffe', '\uffff'])
      expect(isAllowedText(bad), JSON.stringify(bad)).toBe(false);
  });

  it('any clean text passes; one forbidden character anywhere is found', () => {
    fc.assert(
      fc.property(clean, clean, forbidden, (a, b, c) => {
        expect(isAllowedText(a + b)).toBe(true);
        // A lone high surrogate directly before a low one would pair up: keep them apart.
        const ch = String.fromCharCode(c);
        expect(isAllowedText(`${a} ${ch} ${b}`)).toBe(false);
      }),
      { seed: 14, numRuns: 500 },
    );
  });

  it('names the path of the first bad value or key in nested input, at any depth', () => {
    expect(findForbiddenText({ a: 'ok', b: [1, null, { c: 'x\u0000' }] })).toEqual({ path: ['b', 2, 'c'] });
    expect(findForbiddenText({ ['k\u0000ey']: 1 })).toEqual({ path: ['k\uFFFDey'] });
    expect(findForbiddenText('\ud800')).toEqual({ path: [] });
    expect(findForbiddenText({ a: 'fine', n: 1, t: true, z: null })).toBeNull();
    // Binary uploads are not text.
    expect(findForbiddenText({ file: Buffer.from([0, 1, 2]) })).toBeNull();
    // A body nested 100 000 deep is walked without overflowing the stack.
    let deep: unknown = 'x\u0000';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(findForbiddenText(deep)?.path.length).toBe(100_000);
  });

  it('passes any nested input of clean text and finds a forbidden character wherever it is put', () => {
    const input = fc.object({
      key: clean,
      values: [clean, fc.integer(), fc.boolean(), fc.constant(null)],
      maxDepth: 3,
    });
    fc.assert(
      fc.property(input, forbidden, fc.nat(), (value, c, where) => {
        expect(findForbiddenText(value)).toBeNull();
        // Put a bad string into one of the nested objects (chosen by `where`).
        const objects: Array<Record<string, unknown>> = [];
        const collect = (v: unknown) => {
          if (Array.isArray(v)) v.forEach(collect);
          else if (v && typeof v === 'object') {
            objects.push(v as Record<string, unknown>);
            Object.values(v).forEach(collect);
          }
        };
        collect(value);
        const target = objects[where % objects.length] as Record<string, unknown>;
        target.__bad = `x${String.fromCharCode(c)}`;
        const found = findForbiddenText(value);
        expect(found?.path.at(-1)).toBe('__bad');
      }),
      { seed: 14, numRuns: 300 },
    );
  });

  it('strips what it forbids from text that is kept rather than refused, pairs intact', () => {
    expect(stripForbiddenText('a\u0000b\u0007c\ud800d\uffff😀\t')).toBe('abcd😀\t');
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        expect(isAllowedText(stripForbiddenText(s))).toBe(true);
      }),
      { seed: 14, numRuns: 500 },
    );
  });
});
