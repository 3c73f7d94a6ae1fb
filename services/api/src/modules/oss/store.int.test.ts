import { mkdtemp, mkdir, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { CreateBucketCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assertKey,
  BadKeyError,
  bodyOf,
  LocalStore,
  ObjectMissingError,
  type ObjectStore,
  objectKey,
  readAll,
  S3Store,
} from './store';

/** A body that sends some bytes, then fails (a client that went away mid-upload). */
const failingBody = (bytes: number) =>
  Readable.from(
    (async function* () {
      yield Buffer.alloc(bytes, 7);
      throw new Error('client went away');
    })(),
  );

const T = '000000';

/** The one contract every backend keeps, run against each of them. */
function contract(name: string, make: () => ObjectStore, list: () => Promise<string[]>) {
  describe(`${name}: the object store contract`, () => {
    let store: ObjectStore;
    beforeAll(() => {
      store = make();
    });

    it('puts, gets, stats and removes an object; a range reads part of it', async () => {
      const key = objectKey(T, 'txt');
      expect(key).toMatch(new RegExp(`^${T}/\\d{4}/\\d{2}/\\d{2}/[0-9a-f-]{36}\\.txt$`));
      const put = await store.put(key, bodyOf('hello, 幼儿园'), { contentType: 'text/plain' });
      expect(put.size).toBe(Buffer.byteLength('hello, 幼儿园'));
      expect((await readAll(await store.get(key))).toString()).toBe('hello, 幼儿园');
      expect((await readAll(await store.get(key, { start: 1, end: 4 }))).toString()).toBe('ello');
      expect((await readAll(await store.get(key, { start: 7 }))).toString()).toBe('幼儿园');
      expect(await store.stat(key)).toEqual({ size: put.size });
      await store.remove(key);
      expect(await store.stat(key)).toBeUndefined();
      await expect(store.get(key)).rejects.toBeInstanceOf(ObjectMissingError);
      await store.remove(key); // absent: not an error
    });

    it('streams a large body (several parts on S3) and keeps its bytes', async () => {
      const key = objectKey(T, 'bin');
      const chunk = Buffer.alloc(1024 * 1024);
      for (let i = 0; i < chunk.length; i++) chunk[i] = i % 251;
      const body = Readable.from(
        (function* () {
          for (let i = 0; i < 12; i++) yield chunk;
        })(),
      );
      const put = await store.put(key, body, { contentType: 'application/octet-stream', length: 12 * chunk.length });
      expect(put.size).toBe(12 * chunk.length);
      const back = await readAll(await store.get(key, { start: 6 * chunk.length, end: 6 * chunk.length + 9 }));
      expect([...back]).toEqual([...chunk.subarray(0, 10)]);
      await store.remove(key);
    });

    it('a failed put leaves nothing under the key (and nothing beside it)', async () => {
      const before = await list();
      const key = objectKey(T, 'bin');
      await expect(store.put(key, failingBody(64 * 1024), { contentType: 'application/octet-stream' })).rejects.toThrow(
        /client went away/,
      );
      expect(await store.stat(key)).toBeUndefined();
      const big = objectKey(T, 'bin');
      await expect(
        store.put(big, failingBody(6 * 1024 * 1024), { contentType: 'application/octet-stream' }),
      ).rejects.toThrow(/client went away/);
      expect(await store.stat(big)).toBeUndefined();
      // A body shorter than announced is refused too.
      const short = objectKey(T, 'txt');
      await expect(store.put(short, bodyOf('abc'), { contentType: 'text/plain', length: 10 })).rejects.toThrow(
        /announced/,
      );
      expect(await store.stat(short)).toBeUndefined();
      expect(await list()).toEqual(before);
    });

    it('refuses keys that are no plain relative path', async () => {
      for (const key of ['../etc/passwd', `${T}/../x`, '/abs', `${T}\\x`, `${T}/a\u0000b`, `${T}//x`, `${T}/./x`, '']) {
        await expect(store.put(key, bodyOf('x'), { contentType: 'text/plain' })).rejects.toBeInstanceOf(BadKeyError);
        await expect(store.get(key)).rejects.toBeInstanceOf(BadKeyError);
      }
    });

    it('check() passes on a reachable, writable store', async () => {
      await store.check();
    });
  });
}

describe('keys', () => {
  it('every key starts with its tenant; another tenant’s key or a path trick is refused', () => {
    const key = objectKey('123456', '.PDF');
    expect(key.startsWith('123456/')).toBe(true);
    expect(key.endsWith('.pdf')).toBe(true);
    expect(objectKey('123456', 'a b/../c')).toMatch(/\/[0-9a-f-]{36}$/);
    expect(() => assertKey('123456', key)).not.toThrow();
    expect(() => assertKey('654321', key)).toThrow(BadKeyError);
    expect(() => assertKey('123456', '123456/../654321/x')).toThrow(BadKeyError);
    expect(() => assertKey('1234', '123456/x')).toThrow(BadKeyError);
    expect(() => assertKey('123456', '/123456/x')).toThrow(BadKeyError);
  });
});

// ---- local disk ----
const localDir = await mkdtemp(path.join(tmpdir(), 'sprout-local-store-'));
const localRoot = path.join(localDir, 'files');
const walk = async (dir: string): Promise<string[]> => {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...(await walk(p)));
    else out.push(path.relative(localRoot, p));
  }
  return out.sort();
};
contract(
  'local',
  () => new LocalStore(localRoot),
  () => walk(localRoot),
);

describe('local: no way out of the root', () => {
  it('a symlink inside the root leading out is refused for reads, writes and removes', async () => {
    const outside = path.join(localDir, 'outside');
    await mkdir(outside, { recursive: true });
    await writeFile(path.join(outside, 'secret.txt'), 'secret');
    await mkdir(path.join(localRoot, T), { recursive: true });
    await symlink(outside, path.join(localRoot, T, 'link'));
    await symlink(path.join(outside, 'secret.txt'), path.join(localRoot, T, 'file-link'));
    const store = new LocalStore(localRoot);
    await expect(store.get(`${T}/link/secret.txt`)).rejects.toBeInstanceOf(BadKeyError);
    await expect(store.get(`${T}/file-link`)).rejects.toBeInstanceOf(BadKeyError);
    await expect(store.put(`${T}/link/new.txt`, bodyOf('x'), { contentType: 'text/plain' })).rejects.toBeInstanceOf(
      BadKeyError,
    );
    await expect(store.remove(`${T}/link/secret.txt`)).rejects.toBeInstanceOf(BadKeyError);
    expect(await readdir(outside)).toEqual(['secret.txt']);
  });

  it('signedUrl is undefined (the API streams local files)', async () => {
    expect(await new LocalStore(localRoot).signedUrl(`${T}/x`, 60)).toBeUndefined();
  });

  it('check() fails with the disk’s reason when the root cannot be made', async () => {
    const file = path.join(localDir, 'a-file');
    await writeFile(file, 'x');
    await expect(new LocalStore(path.join(file, 'files')).check()).rejects.toThrow(/ENOTDIR|EEXIST/);
  });
});

// ---- S3 protocol on loopback (s3rver) ----
const s3Dir = await mkdtemp(path.join(tmpdir(), 'sprout-s3rver-'));
const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: s3Dir });
const { port } = (await server.run()) as AddressInfo;
const endpoint = `http://127.0.0.1:${port}`;
const s3 = await S3Store.open({
  endpoint,
  bucket: 'sprout',
  accessKey: 'S3RVER',
  secretKey: 'S3RVER',
  region: 'us-east-1',
});
await s3.client.send(new CreateBucketCommand({ Bucket: 'sprout' }));
const listS3 = async () =>
  ((await s3.client.send(new ListObjectsV2Command({ Bucket: 'sprout' }))).Contents ?? [])
    .map((o) => o.Key as string)
    .filter((k) => !k.startsWith('.sprout-check/'))
    .sort();

afterAll(async () => {
  s3.destroy();
  await server.close();
  await rm(s3Dir, { recursive: true, force: true });
  await rm(localDir, { recursive: true, force: true });
});

contract('s3', () => s3, listS3);

describe('s3: links and reasons', () => {
  it('a signed link downloads the object with its name, and stops working once expired', async () => {
    const key = objectKey(T, 'txt');
    await s3.put(key, bodyOf('signed bytes'), { contentType: 'text/plain' });
    const url = (await s3.signedUrl(key, 2, '周计划 plan.txt')) as string;
    expect(url).toContain('X-Amz-Expires=2');
    const ok = await fetch(url);
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe('signed bytes');
    expect(ok.headers.get('content-disposition')).toContain("filename*=UTF-8''%E5%91%A8%E8%AE%A1%E5%88%92%20plan.txt");
    await new Promise((r) => setTimeout(r, 3100));
    const late = await fetch(url);
    expect(late.status).toBe(403);
    expect(await late.text()).toMatch(/expired/i);
  });

  it('check() names the storage’s reason: a missing bucket, an unknown access key, a closed port', async () => {
    await expect(
      (await S3Store.open({ endpoint, bucket: 'nope', accessKey: 'S3RVER', secretKey: 'S3RVER' })).check(),
    ).rejects.toThrow(/NoSuchBucket|nope/);
    await expect(
      (
        await S3Store.open({ endpoint, bucket: 'sprout', accessKey: 'nobody', secretKey: 'wrong', maxAttempts: 1 })
      ).check(),
    ).rejects.toThrow(/InvalidAccessKeyId|Forbidden|403/);
    await expect(
      (
        await S3Store.open({
          endpoint: 'http://127.0.0.1:1',
          bucket: 'sprout',
          accessKey: 'a',
          secretKey: 'b',
          maxAttempts: 1,
        })
      ).check(),
    ).rejects.toThrow(/ECONNREFUSED/);
  });
});
