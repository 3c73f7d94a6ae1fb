import { PassThrough, Readable, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { peek } from './ingest';

/** The body's chunks as ingest's pipe into the store receives them. */
const all = (body: Readable) =>
  new Promise<Buffer[]>((resolve, reject) => {
    const out: Buffer[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        out.push(chunk);
        done();
      },
    });
    sink.on('finish', () => resolve(out));
    body.on('error', reject);
    body.pipe(sink);
  });
const bytes = (length: number, from = 0) => Buffer.from(Array.from({ length }, (_, i) => (from + i) % 251));

describe('peek (the sniffed sample of an upload)', () => {
  it('samples the first n bytes across chunks and hands back every byte in order', async () => {
    const parts = [bytes(3), bytes(4, 3), bytes(5, 7), bytes(6, 12)];
    const { head, body } = await peek(Readable.from(parts, { objectMode: false }), 9);
    expect([...head]).toEqual([...bytes(9)]);
    expect([...Buffer.concat(await all(body))]).toEqual([...bytes(18)]);
  });

  it('a file shorter than the sample: all of it is the sample, and all of it is the body; an empty one is empty', async () => {
    const short = await peek(Readable.from([bytes(5)], { objectMode: false }), 64);
    expect([...short.head]).toEqual([...bytes(5)]);
    expect([...Buffer.concat(await all(short.body))]).toEqual([...bytes(5)]);
    const empty = await peek(Readable.from([], { objectMode: false }), 64);
    expect(empty.head.length).toBe(0);
    expect(await all(empty.body)).toEqual([]);
  });

  it('passes the upload’s own chunks on without joining them into a copy', async () => {
    const source = new PassThrough();
    const big = [bytes(1000), bytes(1000, 1000), bytes(1000, 2000)];
    for (const b of big) source.write(b);
    source.end();
    const { head, body } = await peek(source, 10);
    expect(head.buffer).toBe(big[0]?.buffer);
    const got = await all(body);
    expect(got.map((c) => c.length)).toEqual([1000, 1000, 1000]);
    expect(got.map((c) => c.buffer)).toEqual(big.map((b) => b.buffer));
  });

  it('a broken upload fails the sample', async () => {
    const source = new PassThrough();
    source.write(bytes(3));
    setImmediate(() => source.destroy(new Error('connection reset')));
    await expect(peek(source, 64)).rejects.toThrow('connection reset');
  });
});
