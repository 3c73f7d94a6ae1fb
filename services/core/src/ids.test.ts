import { describe, expect, it } from 'vitest';
import { isId, nextId, setIdNode } from './ids';

describe('nextId', () => {
  it('is unique, increasing and a decimal string under 2^63', () => {
    const ids = Array.from({ length: 20000 }, nextId);
    expect(new Set(ids).size).toBe(ids.length);
    for (let i = 1; i < ids.length; i++) expect(BigInt(ids[i]!) > BigInt(ids[i - 1]!)).toBe(true);
    expect(BigInt(ids.at(-1)!) < 2n ** 63n).toBe(true);
    expect(ids.every(isId)).toBe(true);
  });

  it('carries the configured node in its node bits and refuses a node out of range', () => {
    setIdNode(517);
    expect((BigInt(nextId()) >> 12n) & 1023n).toBe(517n);
    setIdNode(3);
    expect((BigInt(nextId()) >> 12n) & 1023n).toBe(3n);
    expect(() => setIdNode(1024)).toThrow(RangeError);
    expect(() => setIdNode(-1)).toThrow(RangeError);
  });
});
