/// <reference lib="dom" />
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import type { Page } from 'playwright-core';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../services/core/src/permissions/demo';
import { S3Store } from '../../services/api/src/modules/oss/store';
import { type E2E, shot, signIn, startE2E, waitForMenu, watchErrors } from './support/app';
import { dialog, field, notification, openMenu, quiet, rowWith, setLanguage } from './support/crud';

const ADMIN = { tenant: '100001', account: 'admin', password: DEMO_PASSWORD };
const SECRET = 'e2e-secret-key-never-shown';

/**
 * Issue 17: the object storage screen against the real server and a real S3-protocol server
 * on loopback: a local and an S3 configuration added (the S3 fields only for S3), the S3 one
 * enabled, an unreachable one refused with the storage's reason, the secret never shown, the
 * enabled one not removable; in both languages.
 */
describe('resource → object storage (real server, s3rver on loopback)', () => {
  let e2e: E2E;
  let page: Page;
  let errors: string[];
  let s3Dir: string;
  let s3: S3rver;
  let endpoint: string;

  beforeAll(async () => {
    s3Dir = await mkdtemp(path.join(tmpdir(), 'sprout-e2e-s3rver-'));
    s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: s3Dir });
    endpoint = `http://127.0.0.1:${((await s3.run()) as AddressInfo).port}`;
    const admin = await S3Store.open({ endpoint, bucket: 'kinder-files', accessKey: 'S3RVER', secretKey: 'S3RVER' });
    await admin.client.send(new CreateBucketCommand({ Bucket: 'kinder-files' }));
    admin.destroy();
    e2e = await startE2E();
    page = await (await e2e.context()).newPage();
    errors = watchErrors(page);
    await signIn(page, ADMIN);
    await waitForMenu(page);
  });
  afterAll(async () => {
    await e2e?.close();
    await s3?.close();
    if (s3Dir) await rm(s3Dir, { recursive: true, force: true });
  });

  const add = async (values: Record<string, string>, s3Store: boolean) => {
    await page.getByTestId('crud-add').click();
    const d = dialog(page);
    await d.getByText('新增存储配置').waitFor();
    if (s3Store) {
      await field(d, 'category').click();
      await page.getByRole('option', { name: 'S3 协议存储' }).click();
      await field(d, 'bucketName').waitFor();
    }
    for (const [prop, value] of Object.entries(values)) await field(d, prop).fill(value);
    await page.getByTestId('crud-dialog-save').click();
    await notification(page, '新增成功');
    await d.waitFor({ state: 'hidden' });
  };
  const enable = async (code: string) => {
    await rowWith(page, code).getByTestId('crud-row-enable').click();
    await page.getByText('确定启用该存储配置？').waitFor();
    await page.getByTestId('crud-confirm-action').click();
  };

  it('adds a local store: it asks for none of the S3 fields', async () => {
    await openMenu(page, 'oss', '/resource/oss/index', 'oss-page', 'resource');
    await page.getByTestId('crud-add').click();
    const d = dialog(page);
    await field(d, 'ossCode').waitFor();
    expect(await field(d, 'bucketName').count()).toBe(0);
    expect(await field(d, 'secretKey').count()).toBe(0);
    await field(d, 'ossCode').fill('bad code!');
    await field(d, 'ossCode').blur();
    await d.getByText('只能包含字母、数字、下划线、点和连字符').waitFor();
    await page.getByTestId('crud-dialog-cancel').click();
    await d.waitFor({ state: 'hidden' });
    await add({ ossCode: 'disk' }, false);
    await rowWith(page, 'disk').getByText('本地磁盘').waitFor();
  });

  it('adds an S3 store, enables it; the secret never comes back', async () => {
    await page.getByTestId('crud-add').click();
    const d = dialog(page);
    await field(d, 'category').click();
    await page.getByRole('option', { name: 'S3 协议存储' }).click();
    await field(d, 'ossCode').fill('minio-main');
    await field(d, 'bucketName').focus();
    await field(d, 'bucketName').blur();
    await d.getByText('请输入空间名').waitFor();
    await field(d, 'endpoint').fill(endpoint);
    await field(d, 'bucketName').fill('kinder-files');
    await field(d, 'region').fill('us-east-1');
    await field(d, 'accessKey').fill('S3RVER');
    await field(d, 'secretKey').fill(SECRET);
    expect(await field(d, 'secretKey').getAttribute('type')).toBe('password');
    await quiet(page);
    await shot(page, 'oss-add-zh');
    await page.getByTestId('crud-dialog-save').click();
    await notification(page, '新增成功');
    await d.waitFor({ state: 'hidden' });

    const row = rowWith(page, 'minio-main');
    await row.getByText('未启用').waitFor();
    await enable('minio-main');
    await row.getByText('已启用').waitFor();
    // Enabled: no enable button on it any more.
    await expect.poll(() => row.getByTestId('crud-row-enable').count()).toBe(0);

    await row.getByTestId('crud-row-edit').click();
    await expect.poll(() => field(d, 'secretKey').inputValue()).toBe('******');
    expect(await page.content()).not.toContain(SECRET);
    await page.getByTestId('crud-dialog-cancel').click();
    await d.waitFor({ state: 'hidden' });
    await quiet(page);
    await shot(page, 'oss-zh');
  });

  it('refuses to enable a store it cannot reach, with the storage’s reason', async () => {
    await add(
      { ossCode: 'dead', endpoint: 'http://127.0.0.1:1', bucketName: 'kinder-files', accessKey: 'x', secretKey: 'y' },
      true,
    );
    await enable('dead');
    await notification(page, '存储 dead 无法访问或写入');
    await page
      .getByText(/ECONNREFUSED/)
      .first()
      .waitFor();
    await rowWith(page, 'dead').getByText('未启用').waitFor();
    await rowWith(page, 'minio-main').getByText('已启用').waitFor();
  });

  it('in English: the enabled one cannot be deleted', async () => {
    await quiet(page);
    await setLanguage(page, 'en');
    await rowWith(page, 'minio-main').getByText('Enabled').waitFor();
    await rowWith(page, 'disk').getByText('Local disk').waitFor();
    await shot(page, 'oss-en');
    await rowWith(page, 'minio-main').getByTestId('crud-row-delete').click();
    await page.getByTestId('crud-confirm-delete').click();
    await notification(page, 'The enabled storage configuration minio-main cannot be removed');
    await rowWith(page, 'minio-main').waitFor();
    await quiet(page);
    await page.getByTestId('crud-add').click();
    const d = dialog(page);
    await field(d, 'category').click();
    await page.getByRole('option', { name: 'S3 storage' }).click();
    await field(d, 'bucketName').waitFor();
    await shot(page, 'oss-add-en');
    await page.getByTestId('crud-dialog-cancel').click();
    expect(errors).toEqual([]);
  });
});
