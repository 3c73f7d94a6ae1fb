import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { sql } from 'kysely';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inSystem } from '@sprout/core/db';
import { useDemoConsole } from '../auth/console-fixture';
import { MasterKeyWrapper } from '@sprout/core/keys';
import { MemoryStore } from '@sprout/core/kv';
import { rewrapOssSecrets } from './rewrap';
import { bodyOf, OSS_CHANGED, readAll, S3Store, storeFor, watchStores } from './store';

/**
 * Storage configurations (/api/blade-resource/oss) on PostgreSQL, against a real S3-protocol
 * server on loopback: the calls, the secret never answered, one enabled configuration per
 * tenant, enable refused with the storage's reason, and tenants kept apart.
 */
describe('object storage configurations: list, detail, submit, enable, remove', () => {
  const demo = useDemoConsole();
  const { call, refused } = demo;
  const BASE = '/api/blade-resource/oss';
  const SECRET = 'S3RVER-very-secret-key';
  let s3Dir: string;
  let server: S3rver;
  let endpoint: string;

  beforeAll(async () => {
    s3Dir = await mkdtemp(path.join(tmpdir(), 'sprout-oss-s3rver-'));
    server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: s3Dir });
    const { port } = (await server.run()) as AddressInfo;
    endpoint = `http://127.0.0.1:${port}`;
    const admin = await S3Store.open({ endpoint, bucket: 'kinder', accessKey: 'S3RVER', secretKey: 'S3RVER' });
    await admin.client.send(new CreateBucketCommand({ Bucket: 'kinder' }));
    admin.destroy();
  });
  afterAll(async () => {
    await server?.close();
    if (s3Dir) await rm(s3Dir, { recursive: true, force: true });
  });

  const s3Config = (over: object = {}) => ({
    category: 's3',
    ossCode: 'minio-main',
    endpoint,
    bucketName: 'kinder',
    accessKey: 'S3RVER',
    secretKey: SECRET,
    region: 'us-east-1',
    remark: '主存储',
    ...over,
  });
  const add = async (who: string, body: object) => {
    const r = await call(who, 'POST', `${BASE}/submit`, body);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.data as { id: string; status: number; secretKey: string };
  };
  /** The tenant's rows as stored (as the owner). */
  const stored = (tenantId: string) =>
    inSystem(demo.t.database, async (trx) => {
      const r = await sql<{
        id: string;
        oss_code: string;
        status: number;
        secret_key: string | null;
        wrapped: string | null;
        is_deleted: number;
      }>`
        select id::text, oss_code, status, secret_key, secret_key_wrapped_by as wrapped, is_deleted
        from oss where tenant_id = ${tenantId} order by id`.execute(trx);
      return r.rows;
    });

  it('adds, reads and updates an S3 configuration; the secret is stored wrapped and never answered', async () => {
    const added = await call('admin', 'POST', `${BASE}/submit`, s3Config());
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(added.body.msg).toBe('新增成功');
    const { id } = added.body.data;
    expect(Object.keys(added.body.data)).toEqual([
      'id',
      'tenantId',
      'category',
      'ossCode',
      'endpoint',
      'bucketName',
      'accessKey',
      'secretKey',
      'appId',
      'region',
      'remark',
      'status',
      'createTime',
    ]);
    expect(added.body.data).toMatchObject({
      tenantId: '100001',
      category: 's3',
      bucketName: 'kinder',
      status: 1,
      secretKey: '******',
    });
    expect(added.raw).not.toContain(SECRET);

    const [row] = (await stored('100001')).filter((r) => r.id === id);
    expect(row?.wrapped).toMatch(/^mk1-/);
    expect(row?.secret_key).not.toContain(SECRET);

    const detail = await call('admin', 'GET', `${BASE}/detail?id=${id}`);
    expect(detail.body.data).toEqual(added.body.data);
    const list = await call('admin', 'GET', `${BASE}/list?current=1&size=10`);
    expect(list.body.data).toMatchObject({ total: 1, current: 1, size: 10 });
    for (const r of [detail, list]) expect(r.raw).not.toContain(SECRET);

    // An edit leaving the secret blank (or the mask) keeps the stored one.
    const edited = await call(
      'admin',
      'POST',
      `${BASE}/submit`,
      { ...s3Config({ remark: '改了' }), id, secretKey: '' },
      'en',
    );
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body).toMatchObject({ msg: 'Updated', data: { id, remark: '改了', secretKey: '******' } });
    const masked = await call('admin', 'POST', `${BASE}/submit`, { ...s3Config(), id, secretKey: '******' });
    expect(masked.status).toBe(200);
    const [after] = (await stored('100001')).filter((r) => r.id === id);
    expect(after?.secret_key).toBe(row?.secret_key);

    // Saber's BladeX numbers (1 MinIO … 4 Tencent) are S3-protocol stores.
    const numbered = await add('admin', s3Config({ category: 3, ossCode: 'ali' }));
    expect(numbered).toMatchObject({ category: 's3' });
    expect((await call('admin', 'GET', `${BASE}/list?category=s3`)).body.data.total).toBe(2);
    expect((await call('admin', 'GET', `${BASE}/list?ossCode=ali`)).body.data.total).toBe(1);
  });

  it('explains every bad input, in both languages', async () => {
    expect(
      (await refused('admin', `${BASE}/submit`, { category: 'ftp', ossCode: ' ' })).map((f) => f.field).sort(),
    ).toEqual(['category', 'ossCode']);
    const s3 = await refused(
      'admin',
      `${BASE}/submit`,
      { category: 's3', ossCode: 'x', endpoint: 'ftp://a', bucketName: 'Bad_Bucket' },
      'en',
    );
    expect(s3).toEqual(
      expect.arrayContaining([
        { field: 'endpoint', message: 'The endpoint must be an http or https address' },
        { field: 'bucketName', message: 'A bucket name is 3 to 63 lower-case letters, digits, dots or hyphens' },
      ]),
    );
    const noKey = await refused('admin', `${BASE}/submit`, { category: 's3', ossCode: 'x' });
    expect(noKey).toEqual(
      expect.arrayContaining([
        { field: 'bucketName', message: '请输入空间名（存储桶）' },
        { field: 'accessKey', message: '请输入 accessKey' },
      ]),
    );
    const noSecret = await call(
      'admin',
      'POST',
      `${BASE}/submit`,
      s3Config({ ossCode: 'nosecret', secretKey: '' }),
      'en',
    );
    expect(noSecret.status).toBe(400);
    expect(noSecret.body.msg).toBe('Please enter the secret key');
    const taken = await call('admin', 'POST', `${BASE}/submit`, s3Config());
    expect(taken.status).toBe(400);
    expect(taken.body.msg).toBe('资源编号已存在：minio-main');
  });

  it('a local configuration takes none of the S3 fields', async () => {
    const local = await add('admin', {
      category: 'local',
      ossCode: 'disk',
      endpoint: 'http://x',
      bucketName: 'abc',
      secretKey: 'zzz',
    });
    expect(local).toMatchObject({ category: 'local', endpoint: '', bucketName: '', secretKey: '' });
  });

  it('enables exactly one configuration; an unreachable S3 store is refused with its reason', async () => {
    const rows = (await call('admin', 'GET', `${BASE}/list?size=100`)).body.data.records as {
      id: string;
      ossCode: string;
    }[];
    const idOf = (code: string) => rows.find((r) => r.ossCode === code)?.id as string;
    const t = demo.t.database;
    const config = demo.app.config;
    expect((await storeFor(t, config, '100001')).kind).toBe('local');

    const on = await call('admin', 'POST', `${BASE}/enable?id=${idOf('minio-main')}`);
    expect(on.status, JSON.stringify(on.body)).toBe(200);
    expect(on.body.data.status).toBe(2);
    const s3 = await storeFor(t, config, '100001');
    expect(s3.kind).toBe('s3');
    // It really is the bucket: what goes in comes out through a signed link.
    await s3.put('100001/probe.txt', bodyOf('in the bucket'), { contentType: 'text/plain' });
    expect((await readAll(await s3.get('100001/probe.txt'))).toString()).toBe('in the bucket');
    expect(await (await fetch((await s3.signedUrl('100001/probe.txt', 60)) as string)).text()).toBe('in the bucket');

    const dead = await add('admin', s3Config({ ossCode: 'dead', endpoint: 'http://127.0.0.1:1' }));
    const refusedEnable = await call('admin', 'POST', `${BASE}/enable?id=${dead.id}`, undefined, 'en');
    expect(refusedEnable.status).toBe(400);
    expect(refusedEnable.body.msg).toMatch(/^The storage dead cannot be reached or written: .*ECONNREFUSED/);
    const noBucket = await add('admin', s3Config({ ossCode: 'nobucket', bucketName: 'missing-bucket' }));
    const refusedBucket = await call('admin', 'POST', `${BASE}/enable?id=${noBucket.id}`);
    expect(refusedBucket.status).toBe(400);
    expect(refusedBucket.body.msg).toMatch(/^存储 nobucket 无法访问或写入：.*missing-bucket/);
    expect((await stored('100001')).filter((r) => r.status === 2).map((r) => r.oss_code)).toEqual(['minio-main']);

    // Editing the enabled one onto a store it cannot reach is refused, and nothing changes.
    const badEdit = await call('admin', 'POST', `${BASE}/submit`, {
      ...s3Config({ endpoint: 'http://127.0.0.1:1' }),
      id: idOf('minio-main'),
    });
    expect(badEdit.status).toBe(400);
    expect((await call('admin', 'GET', `${BASE}/detail?id=${idOf('minio-main')}`)).body.data.endpoint).toBe(endpoint);

    // Enabling another disables the first, in the same step; files go to the new one at once.
    expect((await call('admin', 'POST', `${BASE}/enable?id=${idOf('disk')}`)).status).toBe(200);
    expect((await stored('100001')).filter((r) => r.status === 2).map((r) => r.oss_code)).toEqual(['disk']);
    expect((await storeFor(t, config, '100001')).kind).toBe('local');
    const list = (await call('admin', 'GET', `${BASE}/list?size=100`)).body.data.records as { status: number }[];
    expect(list.filter((r) => r.status === 2)).toHaveLength(1);
  });

  it('refuses to remove the enabled configuration; removes the others', async () => {
    const rows = (await call('admin', 'GET', `${BASE}/list?size=100`)).body.data.records as {
      id: string;
      ossCode: string;
    }[];
    const idOf = (code: string) => rows.find((r) => r.ossCode === code)?.id as string;
    const r = await call('admin', 'POST', `${BASE}/remove?ids=${idOf('disk')},${idOf('dead')}`, undefined, 'en');
    expect(r.status).toBe(400);
    expect(r.body.msg).toBe('The enabled storage configuration disk cannot be removed: enable another one first');
    expect((await stored('100001')).filter((x) => x.is_deleted === 1)).toHaveLength(0);
    const ok = await call('admin', 'POST', `${BASE}/remove?ids=${idOf('dead')},${idOf('nobucket')}`);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(
      (await stored('100001'))
        .filter((x) => x.is_deleted === 1)
        .map((x) => x.oss_code)
        .sort(),
    ).toEqual(['dead', 'nobucket']);
  });

  it('keeps tenants apart: another tenant cannot list, read, edit, enable or remove them', async () => {
    const rows = (await call('admin', 'GET', `${BASE}/list?size=100`)).body.data.records as {
      id: string;
      ossCode: string;
      status: number;
    }[];
    const theirs = rows.find((r) => r.ossCode === 'minio-main') as { id: string };
    expect((await call('platform', 'GET', `${BASE}/list`)).body.data.total).toBe(0);
    expect((await call('platform', 'GET', `${BASE}/detail?id=${theirs.id}`)).body.data ?? null).toBeNull();
    const enable = await call('platform', 'POST', `${BASE}/enable?id=${theirs.id}`);
    expect(enable.status).toBe(404);
    const edit = await call('platform', 'POST', `${BASE}/submit`, {
      ...s3Config({ ossCode: 'stolen' }),
      id: theirs.id,
    });
    expect(edit.status).toBe(404);
    const remove = await call('platform', 'POST', `${BASE}/remove?ids=${theirs.id}`);
    expect(remove.status).toBe(400);
    expect((await stored('100001')).find((r) => r.id === theirs.id)).toMatchObject({
      oss_code: 'minio-main',
      status: 1,
      is_deleted: 0,
    });
    expect(await stored('000000')).toEqual([]);
    // The platform's own tenant keeps its own configurations like any other.
    const own = await add('platform', s3Config());
    expect((await call('platform', 'POST', `${BASE}/enable?id=${own.id}`)).status).toBe(200);
    expect((await storeFor(demo.t.database, demo.app.config, '000000')).kind).toBe('s3');
    expect((await storeFor(demo.t.database, demo.app.config, '100001')).kind).toBe('local');
  });

  it('a change announced by another replica drops this one’s cached store', async () => {
    const kv = new MemoryStore();
    const { database } = demo.t;
    const config = demo.app.config;
    const unsubscribe = await watchStores(database, kv);
    try {
      const first = await storeFor(database, config, '100001');
      expect(await storeFor(database, config, '100001')).toBe(first);
      await kv.publish(OSS_CHANGED, '100001');
      await expect.poll(async () => (await storeFor(database, config, '100001')) !== first).toBe(true);
    } finally {
      await unsubscribe();
      await kv.close();
    }
  });

  it('follows a master key rotation: every secret is rewrapped under the new key and still reads', async () => {
    const k1 = demo.app.config.MASTER_KEY;
    const k2 = randomBytes(32);
    const rotated = new MasterKeyWrapper(k2, [k1]);
    const first = await rewrapOssSecrets(demo.t.database, rotated);
    expect(first).toMatchObject({ unreadable: 0 });
    expect(first.rewrapped).toBeGreaterThanOrEqual(3);
    const rows = [...(await stored('100001')), ...(await stored('000000'))].filter((r) => r.secret_key);
    expect(rows.every((r) => r.wrapped === rotated.currentKeyId)).toBe(true);
    const main = rows.find((r) => r.oss_code === 'minio-main') as { id: string; secret_key: string };
    const plain = await rotated.unwrap(
      { keyId: rotated.currentKeyId, data: Buffer.from(main.secret_key, 'base64') },
      `oss.secret_key\u0000100001\u0000${main.id}`,
    );
    expect(plain.toString()).toBe(SECRET);
    expect((await rewrapOssSecrets(demo.t.database, rotated)).rewrapped).toBe(0);
    // Back under the app's key for the tests after this one.
    expect((await rewrapOssSecrets(demo.t.database, new MasterKeyWrapper(k1, [k2]))).rewrapped).toBe(first.rewrapped);
  });

  it('needs the screen’s buttons: a teacher may not change storage', async () => {
    expect((await call('teacher', 'GET', `${BASE}/list`)).status).toBe(403);
    expect((await call('teacher', 'POST', `${BASE}/submit`, s3Config({ ossCode: 'teach' }))).status).toBe(403);
    expect((await call('teacher', 'POST', `${BASE}/enable?id=1`)).status).toBe(403);
  });
});
