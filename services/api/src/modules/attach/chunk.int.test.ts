import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { inSystem } from '@sprout/core/db';
import { multipart, useAttachApp } from './testing/fixture';
import { chunkDir, sweepChunks } from './chunk-routes';

const KB = 1024;
const MB = 1024 * KB;

/** `size` bytes of an mp4 (its header, then a repeating pattern): made on the fly, never held whole. */
function mp4Bytes(size: number, from = 0, to = size): Readable {
  const header = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.alloc(12)]);
  const block = Buffer.alloc(MB);
  for (let i = 0; i < block.length; i++) block[i] = (i * 7 + 3) & 0xff;
  async function* gen() {
    let pos = from;
    while (pos < to) {
      const blockStart = pos - (pos % MB);
      const chunk = Buffer.from(block.subarray(pos - blockStart, Math.min(MB, to - blockStart)));
      if (pos < header.length) header.copy(chunk, 0, pos, Math.min(header.length, pos + chunk.length));
      pos += chunk.length;
      yield chunk;
    }
  }
  return Readable.from(gen(), { objectMode: false });
}

async function bytesOf(s: Readable): Promise<Buffer> {
  const out: Buffer[] = [];
  for await (const c of s) out.push(c as Buffer);
  return Buffer.concat(out);
}

describe('chunked, resumable uploads', () => {
  const fx = useAttachApp();
  const INIT = '/api/upload/init-chunk-upload';
  const PART = '/api/upload/upload-chunk';
  const COMPOSE = '/api/upload/compose-file';
  const part = (who: string, uploadId: string, index: number | string, data: Buffer, lang = 'zh-CN') =>
    fx.upload(who, PART, { name: 'blob', data }, { uploadId, index: String(index) }, lang);

  it('takes parts in any order, refuses bad ones clearly, and composes them into one attachment', async () => {
    const size = 200 * KB + 5;
    const whole = await bytesOf(mp4Bytes(size));
    const init = await fx.call('teacher', 'POST', INIT, {
      fileName: '六一汇演.mp4',
      fileSize: size,
      chunkSize: 64 * KB,
      identifier: 'show-1',
    });
    expect(init.status, JSON.stringify(init.body)).toBe(200);
    const { uploadId, chunkCount, chunkSize, uploaded } = init.body.data;
    expect({ chunkCount, chunkSize, uploaded }).toEqual({ chunkCount: 4, chunkSize: 64 * KB, uploaded: [] });
    const slice = (i: number) => whole.subarray(i * chunkSize, Math.min(size, (i + 1) * chunkSize));

    // Out of order is fine: 3 (the short last part), then 1.
    expect((await part('teacher', uploadId, 3, slice(3))).body.data).toEqual({ index: 3, uploaded: 1, chunkCount: 4 });
    expect((await part('teacher', uploadId, 1, slice(1))).status).toBe(200);
    // Twice: said so, not written again.
    const twice = await part('teacher', uploadId, 1, Buffer.alloc(chunkSize, 1));
    expect(twice.status).toBe(409);
    expect(twice.body.msg).toBe('分片 1 已上传，无需重复上传');
    // Out of range, wrong size, not the caller's upload.
    const range = await part('teacher', uploadId, 4, slice(3), 'en');
    expect(range.status).toBe(400);
    expect(range.body.msg).toBe('Part 4 is out of range (0–3)');
    const short = await part('teacher', uploadId, 2, slice(2).subarray(0, 1000));
    expect(short.status).toBe(400);
    expect(short.body.msg).toBe(`分片 2 的大小应为 ${64 * KB} 字节，收到 1000 字节`);
    const long = await part('teacher', uploadId, 0, Buffer.concat([slice(0), Buffer.alloc(10)]));
    expect(long.status).toBe(400);
    expect((await part('admin', uploadId, 0, slice(0))).body.msg).toBe('上传任务不存在或已过期，请重新开始上传');
    expect((await part('platform', uploadId, 0, slice(0))).status).toBe(400);

    // Compose with parts missing: their numbers.
    const missing = await fx.call('teacher', 'POST', `${COMPOSE}?uploadId=${uploadId}`);
    expect(missing.status).toBe(400);
    expect(missing.body.msg).toBe('还有分片未上传：0, 2');

    // Resume: the same identifier answers the same upload and what it holds.
    const again = await fx.call('teacher', 'POST', INIT, {
      fileName: '六一汇演.mp4',
      fileSize: size,
      chunkSize: 64 * KB,
      identifier: 'show-1',
    });
    expect(again.body.data).toMatchObject({ uploadId, uploaded: [1, 3] });
    for (const i of [0, 2]) expect((await part('teacher', uploadId, i, slice(i))).status).toBe(200);

    const composed = await fx.call('teacher', 'POST', COMPOSE, { uploadId });
    expect(composed.status, JSON.stringify(composed.body)).toBe(200);
    const f = composed.body.data;
    expect(f).toMatchObject({ originalName: '六一汇演.mp4', thumbLink: '' });
    expect(f.name).toMatch(/^100001\/.*\.mp4$/);
    const got = await fx.app.inject({ method: 'GET', url: f.link, headers: fx.headers('teacher') });
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('video/mp4');
    expect(createHash('md5').update(got.rawPayload).digest('hex')).toBe(createHash('md5').update(whole).digest('hex'));
    // The parts are gone, and so is the upload.
    expect(existsSync(chunkDir(fx.config, '100001', uploadId))).toBe(false);
    expect((await fx.call('teacher', 'POST', COMPOSE, { uploadId })).body.msg).toBe(
      '上传任务不存在或已过期，请重新开始上传',
    );
  });

  it('checks the composed content like put-file: a name its content contradicts leaves nothing', async () => {
    const size = 70 * KB;
    const init = await fx.call('teacher', 'POST', INIT, { fileName: 'plan.pdf', fileSize: size, chunkSize: 64 * KB });
    const { uploadId } = init.body.data;
    const data = await bytesOf(mp4Bytes(size));
    await part('teacher', uploadId, 0, data.subarray(0, 64 * KB));
    await part('teacher', uploadId, 1, data.subarray(64 * KB));
    const r = await fx.call('teacher', 'POST', COMPOSE, { uploadId });
    expect(r.status).toBe(400);
    expect(r.body.msg).toBe('文件内容与类型不符（.pdf）');
    const tooBig = await fx.call('teacher', 'POST', INIT, { fileName: 'me.png', fileSize: 600 * KB, kind: 'avatar' });
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.msg).toBe('上传头像图片大小不能超过 500KB!');
    const badType = await fx.call('teacher', 'POST', INIT, { fileName: 'a.exe', fileSize: 100 });
    expect(badType.status).toBe(400);
  });

  it('resumes after a dropped connection: the cut part does not count, only the missing parts are sent again', async () => {
    await fx.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = fx.app.server.address() as AddressInfo;
    const size = 3 * 64 * KB;
    const whole = await bytesOf(mp4Bytes(size));
    const init = await fx.call('teacher', 'POST', INIT, {
      fileName: 'clip.mp4',
      fileSize: size,
      chunkSize: 64 * KB,
      identifier: 'clip',
    });
    const { uploadId } = init.body.data;
    expect((await part('teacher', uploadId, 0, whole.subarray(0, 64 * KB))).status).toBe(200);

    // Part 1: half its body, then the connection drops.
    const body = multipart({ name: 'blob', data: whole.subarray(64 * KB, 128 * KB) }, { uploadId, index: '1' });
    await new Promise<void>((resolve) => {
      const req = httpRequest({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: PART,
        headers: { ...fx.headers('teacher'), 'content-type': body.contentType, 'content-length': body.payload.length },
      });
      req.on('error', () => resolve());
      req.on('response', (res) => {
        res.resume();
        resolve();
      });
      req.write(body.payload.subarray(0, body.payload.length / 2), () => setImmediate(() => req.destroy()));
    });
    // The server notices the cut body; the half part is not kept.
    const dir = chunkDir(fx.config, '100001', uploadId);
    await expect
      .poll(async () => (await import('node:fs/promises')).readdir(dir), { timeout: 5000 })
      .toEqual(['0.part']);

    const again = await fx.call('teacher', 'POST', INIT, {
      fileName: 'clip.mp4',
      fileSize: size,
      chunkSize: 64 * KB,
      identifier: 'clip',
    });
    expect(again.body.data).toMatchObject({ uploadId, uploaded: [0] });
    for (const i of [1, 2])
      expect((await part('teacher', uploadId, i, whole.subarray(i * 64 * KB, (i + 1) * 64 * KB))).status).toBe(200);
    const composed = await fx.call('teacher', 'POST', COMPOSE, { uploadId });
    expect(composed.status).toBe(200);
    const got = await fx.app.inject({ method: 'GET', url: composed.body.data.link, headers: fx.headers('teacher') });
    expect(got.rawPayload.equals(whole)).toBe(true);
  });

  it('sweeps the parts of uploads untouched for a day', async () => {
    const init = await fx.call('teacher', 'POST', INIT, {
      fileName: 'old.mp4',
      fileSize: 100 * KB,
      chunkSize: 64 * KB,
    });
    const { uploadId } = init.body.data;
    await part('teacher', uploadId, 0, (await bytesOf(mp4Bytes(100 * KB))).subarray(0, 64 * KB));
    const dir = chunkDir(fx.config, '100001', uploadId);
    expect(existsSync(dir)).toBe(true);
    expect(await sweepChunks(fx.t.database, fx.config)).toBe(0);
    expect(
      await sweepChunks(fx.t.database, fx.config, 24 * 3600 * 1000, new Date(Date.now() + 25 * 3600 * 1000)),
    ).toBeGreaterThan(0);
    expect(existsSync(dir)).toBe(false);
    const left = await inSystem(fx.t.database, (trx) =>
      sql<{ n: number }>`select count(*)::int as n from chunk_upload where id = ${uploadId}`.execute(trx),
    );
    expect(left.rows[0]?.n).toBe(0);
  });

  it('composes a 1 GB upload with the server’s memory flat (RSS growth under 150 MB)', {
    timeout: 300_000,
  }, async () => {
    const size = 1024 * MB;
    const chunkSize = 64 * MB;
    const init = await fx.call('teacher', 'POST', INIT, {
      fileName: '毕业典礼.mp4',
      fileSize: size,
      chunkSize,
      identifier: 'big',
    });
    expect(init.status, JSON.stringify(init.body)).toBe(200);
    const { uploadId, chunkCount } = init.body.data;
    expect(chunkCount).toBe(16);
    // The parts, streamed to where the part calls put them (1 GB through inject would be held in memory by the test itself).
    const dir = chunkDir(fx.config, '100001', uploadId);
    await mkdir(dir, { recursive: true });
    for (let i = 0; i < chunkCount; i++)
      await pipeline(
        mp4Bytes(size, i * chunkSize, (i + 1) * chunkSize),
        createWriteStream(path.join(dir, `${i}.part`)),
      );

    global.gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const timer = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 20);
    try {
      const composed = await fx.call('teacher', 'POST', COMPOSE, { uploadId });
      expect(composed.status, JSON.stringify(composed.body)).toBe(200);
      const key = composed.body.data.name as string;
      const file = path.join(fx.dataDir, 'files', key);
      expect((await stat(file)).size).toBe(size);
      // Its last bytes are the generator's.
      const tail = await bytesOf(createReadStream(file, { start: size - 16 }));
      expect(tail.equals(await bytesOf(mp4Bytes(size, size - 16)))).toBe(true);
      await rm(file);
    } finally {
      clearInterval(timer);
      await rm(dir, { recursive: true, force: true });
    }
    const growth = (peak - before) / MB;
    console.log(`1 GB compose: RSS ${Math.round(before / MB)} MB before, peak +${growth.toFixed(1)} MB`);
    expect(growth).toBeLessThan(150);
  });
});
