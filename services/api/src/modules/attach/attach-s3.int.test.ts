import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { S3Store } from '../oss';
import { useAttachApp } from './testing/fixture';

// An S3-protocol server on loopback (s3rver), started by the test.
const s3Dir = await mkdtemp(path.join(tmpdir(), 'sprout-attach-s3-'));
const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: s3Dir });
const { port } = (await server.run()) as AddressInfo;
const s3 = await S3Store.open({
  endpoint: `http://127.0.0.1:${port}`,
  bucket: 'files',
  accessKey: 'S3RVER',
  secretKey: 'S3RVER',
  region: 'us-east-1',
});
await s3.client.send(new CreateBucketCommand({ Bucket: 'files' }));

describe('put-file on S3-protocol storage', () => {
  const fx = useAttachApp({ stores: async () => s3 });
  afterAll(async () => {
    s3.destroy();
    await server.close();
    await rm(s3Dir, { recursive: true, force: true });
  });

  it('stores the object and its thumbnail in the bucket; a download is a 302 to a signed, expiring link', async () => {
    const data = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#39c' } })
      .png()
      .toBuffer();
    const r = await fx.upload(
      'teacher',
      '/api/blade-resource/oss/endpoint/put-file',
      { name: '操场.png', data },
      { kind: 'photo' },
    );
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const f = r.body.data;
    expect(await s3.stat(f.name)).toEqual({ size: data.length });
    await fx.thumbnails();
    expect(await s3.stat(`${f.name}.thumb.webp`)).toBeDefined();

    const got = await fx.app.inject({
      method: 'GET',
      url: f.link,
      headers: { cookie: `sprout-access-token=${fx.tokens.teacher}` },
    });
    expect(got.statusCode).toBe(302);
    const signed = new URL(got.headers.location as string);
    expect(signed.searchParams.get('X-Amz-Expires')).toBe('300');
    expect(signed.pathname).toBe(`/files/${f.name.split('/').map(encodeURIComponent).join('/')}`);
    const fetched = await fetch(signed);
    expect(fetched.status).toBe(200);
    expect(Buffer.from(await fetched.arrayBuffer()).equals(data)).toBe(true);
    expect(signed.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    // Another tenant gets no link at all.
    const other = await fx.app.inject({ method: 'GET', url: f.link, headers: fx.headers('platform') });
    expect(other.statusCode).toBe(404);
  });
});
