import { describe, expect, it } from 'vitest';
import { LogBuffer } from './buffer';

describe('LogBuffer: bounded, batched, off the request path', () => {
  it('writes in batches of its size, every row once, in order', async () => {
    const batches: number[][] = [];
    const b = new LogBuffer<number>({ write: async (rows) => void batches.push(rows), batch: 3 });
    for (let i = 0; i < 7; i++) b.push(i);
    await b.flush();
    expect(batches).toEqual([[0, 1, 2], [3, 4, 5], [6]]);
    expect(b.written).toBe(7);
    expect(b.size).toBe(0);
  });

  it('a full buffer drops its oldest rows and counts them, never growing past its cap', async () => {
    const written: number[] = [];
    const b = new LogBuffer<number>({ write: async (rows) => void written.push(...rows), cap: 100, batch: 1000 });
    for (let i = 0; i < 5000; i++) b.push(i);
    expect(b.size).toBe(100);
    expect(b.dropped).toBe(4900);
    await b.flush();
    expect(written).toEqual(Array.from({ length: 100 }, (_, i) => 4900 + i));
  });

  it('a failed write keeps the rows for the next flush and throws nothing', async () => {
    let down = true;
    const written: number[] = [];
    const errors: unknown[] = [];
    const b = new LogBuffer<number>({
      write: async (rows) => {
        if (down) throw new Error('database down');
        written.push(...rows);
      },
      onError: (e) => errors.push(e),
      cap: 10,
    });
    for (let i = 0; i < 8; i++) b.push(i);
    await b.flush();
    expect(errors).toHaveLength(1);
    expect(b.size).toBe(8);
    for (let i = 8; i < 12; i++) b.push(i); // past the cap while down: the oldest go
    expect(b.size).toBe(10);
    down = false;
    await b.flush();
    expect(written).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(b.dropped).toBe(2);
  });

  it('flushes by itself when a batch is full, and writes what is left on close', async () => {
    const written: number[] = [];
    const b = new LogBuffer<number>({
      write: async (rows) => void written.push(...rows),
      batch: 5,
      intervalMs: 60_000,
    });
    b.start();
    for (let i = 0; i < 5; i++) b.push(i);
    await new Promise((r) => setImmediate(r));
    await b.flush();
    expect(written).toEqual([0, 1, 2, 3, 4]);
    b.push(5);
    await b.close();
    expect(written).toEqual([0, 1, 2, 3, 4, 5]);
    b.push(6); // after close: counted, not kept
    expect(b.dropped).toBe(1);
  });
});
