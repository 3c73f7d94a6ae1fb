import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import sharp from 'sharp';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { inSystem, inTenant } from '@sprout/core/db';
import { LocalStore, type ObjectStore } from '../oss';
import { makeThumbnail, readAttachment, releaseAttachments, useAttachments } from '.';
import { useAttachApp } from './testing/fixture';

const png = (w = 640, h = 480) =>
  sharp({ create: { width: w, height: h, channels: 3, background: '#5a8' } })
    .png()
    .toBuffer();
/** A noisy png: incompressible, so large. */
const bigPng = () =>
  sharp({
    create: {
      width: 700,
      height: 700,
      channels: 3,
      background: '#000',
      noise: { type: 'gaussian', mean: 128, sigma: 60 },
    },
  })
    .png()
    .toBuffer();
const gif = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
const pdf = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

/**
 * The start of a phone's HEIC photo: an ISO-BMFF `ftyp` box (major brand heic, compatible
 * mif1 heic) and a `meta` box's header, then bytes. Real enough for content sniffing; libvips'
 * prebuilt build could not decode the HEVC inside anyway.
 */
const heic = () => {
  const box = Buffer.alloc(24);
  box.writeUInt32BE(24, 0);
  box.write('ftypheic', 4, 'latin1');
  box.write('mif1heic', 16, 'latin1');
  const meta = Buffer.alloc(12);
  meta.writeUInt32BE(12, 0);
  meta.write('meta', 4, 'latin1');
  return Buffer.concat([box, meta, Buffer.alloc(4000, 0x5a)]);
};

/** Every file under a folder (recursively). */
async function filesUnder(dir: string): Promise<string[]> {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true }))
    if (e.isFile()) out.push(path.join(e.parentPath, e.name));
  return out;
}

describe('uploads and attachments (local disk)', () => {
  const fx = useAttachApp();
  const PUT = '/api/blade-resource/oss/endpoint/put-file';
  const rows = (tenantId: string) =>
    inSystem(fx.t.database, async (trx) => {
      const r = await sql<{ id: string; name: string; is_deleted: number }>`
        select id::text, name, is_deleted from attach where tenant_id = ${tenantId} order by id`.execute(trx);
      return r.rows;
    });
  const files = () => filesUnder(path.join(fx.dataDir, 'files'));

  it('stores a picture: BladeFile answer, attach row, object and thumbnail, served back with the cookie only', async () => {
    const data = await png();
    const r = await fx.upload('teacher', PUT, { name: '春游.png', data });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const f = r.body.data;
    expect(f).toMatchObject({ originalName: '春游.png', domain: '' });
    expect(f.name).toMatch(/^100001\/\d{4}\/\d{2}\/\d{2}\/[0-9a-f-]{36}\.png$/);
    expect(f.link).toBe(`/api/blade-resource/attach/download/${f.attachId}`);
    expect(f.thumbLink).toBe(`${f.link}?thumb=1`);

    // The download: the header's token …
    const byHeader = await fx.app.inject({ method: 'GET', url: f.link, headers: fx.headers('teacher') });
    expect(byHeader.statusCode).toBe(200);
    expect(byHeader.headers['content-type']).toBe('image/png');
    expect(Number(byHeader.headers['content-length'])).toBe(data.length);
    expect(byHeader.rawPayload.equals(data)).toBe(true);
    // … or the web app's cookie, with no client credentials (an <img src>).
    const byCookie = await fx.app.inject({
      method: 'GET',
      url: f.link,
      headers: { cookie: `language=zh-CN; sprout-access-token=${fx.tokens.teacher}` },
    });
    expect(byCookie.statusCode).toBe(200);
    expect(byCookie.rawPayload.equals(data)).toBe(true);
    // Nobody signed in: refused.
    expect((await fx.app.inject({ method: 'GET', url: f.link })).statusCode).toBe(401);
    expect(
      (await fx.app.inject({ method: 'GET', url: f.link, headers: { cookie: 'sprout-access-token=forged' } }))
        .statusCode,
    ).toBe(401);

    // The thumbnail is made after the answer (the worker's queue).
    await fx.thumbnails();
    const thumb = await fx.app.inject({ method: 'GET', url: f.thumbLink, headers: fx.headers('teacher') });
    expect(thumb.statusCode).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/webp');
    const meta = await sharp(thumb.rawPayload).metadata();
    expect([meta.width, meta.height]).toEqual([320, 240]);

    // A range (a video seeking, a resumed download).
    const part = await fx.app.inject({
      method: 'GET',
      url: f.link,
      headers: { ...fx.headers('teacher'), range: 'bytes=10-19' },
    });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 10-19/${data.length}`);
    expect(part.rawPayload.equals(data.subarray(10, 20))).toBe(true);

    const stored = (await rows('100001')).find((x) => x.id === f.attachId);
    expect(stored?.name).toBe(f.name);
    expect(await files()).toEqual(
      expect.arrayContaining([
        path.join(fx.dataDir, 'files', f.name),
        path.join(fx.dataDir, 'files', `${f.name}.thumb.webp`),
      ]),
    );
  });

  it('refuses an avatar that is not jpg/png or over 500 kB with the spec’s messages, in both languages', async () => {
    const before = await files();
    const rowsBefore = (await rows('100001')).length;
    const gifAvatar = await fx.upload('teacher', `${PUT}?kind=avatar`, { name: 'me.gif', data: gif });
    expect(gifAvatar.status).toBe(400);
    expect(gifAvatar.body.msg).toBe('上传头像图片只能是 JPG/PNG 格式!');
    // A gif renamed .png: its content says gif.
    const disguised = await fx.upload('teacher', PUT, { name: 'me.png', data: gif }, { kind: 'avatar' }, 'en');
    expect(disguised.status).toBe(400);
    expect(disguised.body.msg).toBe('The picture must be a JPG or PNG file!');
    const big = await bigPng();
    expect(big.length).toBeGreaterThan(500 * 1024);
    const tooBig = await fx.upload('teacher', PUT, { name: 'me.png', data: big }, { kind: 'avatar' });
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.msg).toBe('上传头像图片大小不能超过 500KB!');
    // Nothing half-written: no object, no row.
    expect(await files()).toEqual(before);
    expect((await rows('100001')).length).toBe(rowsBefore);
    // A good one.
    const ok = await fx.upload(
      'teacher',
      PUT,
      {
        name: 'me.jpeg',
        data: await sharp(await png(200, 200))
          .jpeg()
          .toBuffer(),
      },
      { kind: 'avatar' },
    );
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.data.name).toMatch(/\.jpg$/);
    await fx.thumbnails();
  });

  it('refuses an empty file, content its name contradicts, an unknown kind, no file at all', async () => {
    const before = await files();
    const empty = await fx.upload('teacher', PUT, { name: 'a.pdf', data: Buffer.alloc(0) });
    expect(empty.status).toBe(400);
    expect(empty.body.msg).toBe('文件不能为空');
    const pngAsPdf = await fx.upload('teacher', PUT, { name: 'report.pdf', data: await png() });
    expect(pngAsPdf.status).toBe(400);
    expect(pngAsPdf.body.msg).toBe('文件内容与类型不符（.pdf）');
    const exe = await fx.upload('teacher', PUT, { name: 'setup.exe', data: Buffer.from('MZ\x90\x00') }, {}, 'en');
    expect(exe.status).toBe(400);
    expect(exe.body.msg).toMatch(/^Files of type exe cannot be uploaded here/);
    const binaryTxt = await fx.upload('teacher', PUT, { name: 'notes.txt', data: Buffer.from([0, 1, 2, 3]) });
    expect(binaryTxt.body.msg).toBe('文件内容与类型不符（.txt）');
    const kind = await fx.upload('teacher', `${PUT}?kind=movie`, { name: 'a.pdf', data: pdf });
    expect(kind.status).toBe(400);
    const none = await fx.upload('teacher', PUT, null, { kind: 'photo' });
    expect(none.status).toBe(400);
    expect(none.body.msg).toBe('请选择要上传的文件');
    expect(await files()).toEqual(before);
    // A text file and a pdf are fine as documents.
    const txt = await fx.upload(
      'teacher',
      PUT,
      { name: '说明.txt', data: Buffer.from('你好，世界\n') },
      { kind: 'document' },
    );
    expect(txt.status, JSON.stringify(txt.body)).toBe(200);
    const doc = await fx.upload('teacher', PUT, { name: 'plan.pdf', data: pdf }, { kind: 'document' });
    expect(doc.status).toBe(200);
    // A document as a photo is not a photo.
    const asPhoto = await fx.upload('teacher', PUT, { name: 'plan.pdf', data: pdf }, { kind: 'photo' });
    expect(asPhoto.status).toBe(400);
  });

  it('takes a HEIC photo by its content and keeps it without a thumbnail, quietly; refuses it under a wrong name', async () => {
    const warned: unknown[] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => warned.push(args);
    try {
      const data = heic();
      const r = await fx.upload('teacher', PUT, { name: 'IMG_0042.HEIC', data }, { kind: 'photo' });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      const f = r.body.data;
      expect(f.name).toMatch(/\.heic$/);
      // No thumbnail link: the page shows a placeholder with the name instead.
      expect(f.thumbLink).toBe('');
      await fx.thumbnails();
      const original = await fx.app.inject({ method: 'GET', url: f.link, headers: fx.headers('teacher') });
      expect(original.statusCode).toBe(200);
      expect(original.headers['content-type']).toBe('image/heic');
      expect(original.rawPayload.equals(data)).toBe(true);
      const thumb = await fx.app.inject({ method: 'GET', url: `${f.link}?thumb=1`, headers: fx.headers('teacher') });
      expect(thumb.statusCode).toBe(404);
      expect(existsSync(path.join(fx.dataDir, 'files', `${f.name}.thumb.webp`))).toBe(false);
      // Even asked for, its thumbnail job ends at once: nothing logged, nothing to retry.
      const logged: unknown[] = [];
      const store = new LocalStore(path.join(fx.dataDir, 'files'));
      const job = { tenantId: '100001', id: f.attachId as string, key: f.name as string };
      expect(await makeThumbnail(fx.t.database, store, job, (err) => logged.push(err))).toBe('skipped');
      expect(logged).toEqual([]);
      expect(warned).toEqual([]);

      const before = await files();
      const asJpg = await fx.upload('teacher', PUT, { name: 'IMG_0042.jpg', data }, { kind: 'photo' });
      expect(asJpg.status).toBe(400);
      expect(asJpg.body.msg).toBe('文件内容与类型不符（.jpg）');
      const pngAsHeic = await fx.upload('teacher', PUT, { name: 'a.heic', data: await png() }, { kind: 'photo' }, 'en');
      expect(pngAsHeic.status).toBe(400);
      expect(pngAsHeic.body.msg).toMatch(/\.heic/);
      expect(await files()).toEqual(before);
    } finally {
      console.warn = warn;
    }
  });

  it('lists, details and removes attachments; a used one is refused naming where; objects go after the row', async () => {
    const up = await fx.upload('admin', '/api/blade-resource/attach/upload', {
      name: '园所平面图.png',
      data: await png(),
    });
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    await fx.thumbnails();
    const id = up.body.data.attachId as string;
    const list = await fx.call('admin', 'GET', '/api/blade-resource/attach/list?current=1&size=10&originalName=平面图');
    expect(list.status).toBe(200);
    expect(list.body.data.total).toBe(1);
    const row = list.body.data.records[0];
    expect(row).toMatchObject({
      id,
      originalName: '园所平面图.png',
      extension: 'png',
      contentType: 'image/png',
      kind: 'file',
      uploader: '周明',
      thumbLink: `/api/blade-resource/attach/download/${id}?thumb=1`,
    });
    expect(row.attachSize).toBeGreaterThan(0);
    const byExt = await fx.call('admin', 'GET', '/api/blade-resource/attach/list?extension=pdf');
    expect(byExt.body.data.records.every((r: { extension: string }) => r.extension === 'pdf')).toBe(true);
    expect(byExt.body.data.total).toBeGreaterThan(0);
    const later = await fx.call('admin', 'GET', '/api/blade-resource/attach/list?createTime_dategt=2999-01-01');
    expect(later.body.data.total).toBe(0);
    expect((await fx.call('admin', 'GET', `/api/blade-resource/attach/detail?id=${id}`)).body.data).toEqual(row);

    // A library file uses it.
    await inTenant(fx.t.database, { tenantId: '100001', userId: '1' }, (trx) =>
      useAttachments(trx, '100001', [id], { kind: 'file', id: '42', name: '园所平面图' }),
    );
    const refused = await fx.call('admin', 'POST', `/api/blade-resource/attach/remove?ids=${id}`);
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toBe('附件正被使用（资源文件：园所平面图），不能删除');
    const key = up.body.data.name as string;
    expect(existsSync(path.join(fx.dataDir, 'files', key))).toBe(true);

    // readAttachment: the library reads the bytes.
    const { row: read, stream } = await readAttachment(fx.t.database, fx.config, '100001', id);
    expect(read.original_name).toBe('园所平面图.png');
    const chunks: Buffer[] = [];
    for await (const c of stream) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).subarray(1, 4).toString()).toBe('PNG');

    await inTenant(fx.t.database, { tenantId: '100001', userId: '1' }, (trx) =>
      releaseAttachments(trx, '100001', { kind: 'file', id: '42' }),
    );
    const removed = await fx.call('admin', 'POST', `/api/blade-resource/attach/remove?ids=${id}`);
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect(existsSync(path.join(fx.dataDir, 'files', key))).toBe(false);
    expect(existsSync(path.join(fx.dataDir, 'files', `${key}.thumb.webp`))).toBe(false);
    expect(
      (await fx.app.inject({ method: 'GET', url: up.body.data.link, headers: fx.headers('admin') })).statusCode,
    ).toBe(404);
    // A teacher may upload but not manage the attachments.
    expect((await fx.call('teacher', 'GET', '/api/blade-resource/attach/list')).status).toBe(403);
  });

  it('keeps tenants apart: the platform cannot read, list or link the kindergarten’s file by id or key', async () => {
    const up = await fx.upload('teacher', PUT, { name: 'secret.pdf', data: pdf });
    const f = up.body.data;
    const asOther = await fx.app.inject({ method: 'GET', url: f.link, headers: fx.headers('platform') });
    expect(asOther.statusCode).toBe(404);
    const cookie = await fx.app.inject({
      method: 'GET',
      url: f.link,
      headers: { cookie: `sprout-access-token=${fx.tokens.platform}` },
    });
    expect(cookie.statusCode).toBe(404);
    expect((await fx.call('platform', 'GET', `/api/blade-resource/attach/detail?id=${f.attachId}`)).status).toBe(404);
    const list = await fx.call('platform', 'GET', '/api/blade-resource/attach/list?size=200');
    expect(list.body.data.records.map((r: { id: string }) => r.id)).not.toContain(f.attachId);
    const link = await fx.call(
      'platform',
      'GET',
      `/api/blade-resource/oss/endpoint/file-link?fileName=${encodeURIComponent(f.name)}`,
    );
    expect(link.status).toBe(404);
    const own = await fx.call(
      'teacher',
      'GET',
      `/api/blade-resource/oss/endpoint/file-link?fileName=${encodeURIComponent(f.name)}`,
    );
    expect(own.body.data).toBe(f.link);
    const dots = await fx.call(
      'teacher',
      'GET',
      `/api/blade-resource/oss/endpoint/file-link?fileName=${encodeURIComponent('100001/../000000/x.pdf')}`,
    );
    expect(dots.status).toBe(400);
    expect(dots.body.msg).toBe('文件路径不合法');
    const removed = await fx.call('platform', 'POST', `/api/blade-resource/attach/remove?ids=${f.attachId}`);
    expect(removed.status).toBe(400);
    expect(existsSync(path.join(fx.dataDir, 'files', f.name))).toBe(true);
  });
});

describe('uploads when the storage is down', () => {
  /** A local store whose writes fail after reading part of the body (a full disk, a bucket gone). */
  const failing = (root: string): ObjectStore => {
    const real = new LocalStore(root);
    return Object.assign(Object.create(real) as ObjectStore, {
      put: async (_key: string, body: Readable) => {
        for await (const _ of body) break;
        throw new Error('ENOSPC: no space left on device');
      },
    });
  };
  const fx = useAttachApp({ stores: async (_db, config) => failing(path.join(config.DATA_DIR, 'files')) });

  it('answers a clear message and leaves no object and no row', async () => {
    const r = await fx.upload('teacher', '/api/blade-resource/oss/endpoint/put-file', {
      name: 'a.png',
      data: await png(),
    });
    expect(r.status).toBe(503);
    expect(r.body.msg).toBe('文件存储失败，请稍后重试');
    expect(JSON.stringify(r.body)).not.toContain('ENOSPC');
    expect(await filesUnder(path.join(fx.dataDir, 'files'))).toEqual([]);
    const count = await inSystem(fx.t.database, (trx) =>
      sql<{ n: number }>`select count(*)::int as n from attach`.execute(trx),
    );
    expect(count.rows[0]?.n).toBe(0);
  });
});

describe('thumbnails after the answer', () => {
  // No worker here: the thumbnails asked for stay queued until the test makes them.
  const fx = useAttachApp({ thumbnails: false });
  const PUT = '/api/blade-resource/oss/endpoint/put-file';
  const thumbOf = (f: { thumbLink: string }) =>
    fx.app.inject({ method: 'GET', url: f.thumbLink, headers: fx.headers('teacher') });
  const thumbKey = (tenantId: string, id: string) =>
    inSystem(fx.t.database, async (trx) => {
      const r = await sql<{ thumb_key: string | null }>`
        select thumb_key from attach where tenant_id = ${tenantId} and id = ${id}`.execute(trx);
      return r.rows[0]?.thumb_key;
    });

  it('answers before the thumbnail exists; its link shows the picture itself until it is made', async () => {
    const data = await png(800, 400);
    const r = await fx.upload('teacher', PUT, { name: '午睡.png', data });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const f = r.body.data;
    expect(f.thumbLink).toBe(`${f.link}?thumb=1`);
    expect(await thumbKey('100001', f.attachId)).toBeNull();
    const early = await thumbOf(f);
    expect(early.statusCode).toBe(200);
    expect(early.headers['content-type']).toBe('image/png');
    expect(early.rawPayload.equals(data)).toBe(true);

    const store = new LocalStore(path.join(fx.dataDir, 'files'));
    const job = { tenantId: '100001', id: f.attachId as string, key: f.name as string };
    expect(await makeThumbnail(fx.t.database, store, job)).toBe('made');
    expect(await thumbKey('100001', f.attachId)).toBe(`${f.name}.thumb.webp`);
    const late = await thumbOf(f);
    expect(late.headers['content-type']).toBe('image/webp');
    const meta = await sharp(late.rawPayload).metadata();
    expect([meta.width, meta.height]).toEqual([320, 160]);
  });

  it('a picture that cannot be decoded keeps its file and its link shows the original; a PDF has no thumbnail', async () => {
    // A PNG signature and header, then garbage: its type reads as png, libvips cannot decode it.
    const broken = Buffer.concat([(await png(64, 64)).subarray(0, 33), Buffer.alloc(2000, 7)]);
    const r = await fx.upload('teacher', PUT, { name: '坏图.png', data: broken });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const f = r.body.data;
    const store = new LocalStore(path.join(fx.dataDir, 'files'));
    const logged: unknown[] = [];
    const job = { tenantId: '100001', id: f.attachId as string, key: f.name as string };
    expect(await makeThumbnail(fx.t.database, store, job, (err) => logged.push(err))).toBe('failed');
    expect(logged).toHaveLength(1);
    expect(existsSync(path.join(fx.dataDir, 'files', `${f.name}.thumb.webp`))).toBe(false);
    const shown = await thumbOf(f);
    expect(shown.statusCode).toBe(200);
    expect(shown.rawPayload.equals(broken)).toBe(true);

    const doc = await fx.upload('teacher', PUT, { name: '通知.pdf', data: pdf });
    expect(doc.body.data.thumbLink).toBe('');
    const none = await fx.app.inject({
      method: 'GET',
      url: `${doc.body.data.link}?thumb=1`,
      headers: fx.headers('teacher'),
    });
    expect(none.statusCode).toBe(404);
  });

  it('an attachment removed before its thumbnail is made keeps no thumbnail object', async () => {
    const r = await fx.upload('admin', PUT, { name: '已删.png', data: await png() });
    const f = r.body.data;
    const removed = await fx.call('admin', 'POST', `/api/blade-resource/attach/remove?ids=${f.attachId}`);
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    const store = new LocalStore(path.join(fx.dataDir, 'files'));
    const job = { tenantId: '100001', id: f.attachId as string, key: f.name as string };
    expect(await makeThumbnail(fx.t.database, store, job)).toBe('gone');
    expect(existsSync(path.join(fx.dataDir, 'files', f.name))).toBe(false);
    expect(existsSync(path.join(fx.dataDir, 'files', `${f.name}.thumb.webp`))).toBe(false);
  });
});
