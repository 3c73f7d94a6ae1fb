/// <reference lib="dom" />
import type { Page, Route } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../services/core/src/permissions/demo';
import { type E2E, shot, signIn, startE2E, waitForMenu, watchErrors } from './support/app';
import { dialog, field, notification, openMenu, quiet, rowWith, rows, setLanguage } from './support/crud';

const ADMIN = { tenant: '100001', account: 'admin', password: DEMO_PASSWORD };
const TEACHER = { tenant: '100001', account: 'teacher1', password: DEMO_PASSWORD };

const png = (w: number, h: number, background: string) =>
  sharp({ create: { width: w, height: h, channels: 3, background } })
    .png()
    .toBuffer();
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

/** Whether the <img> inside `selector` loaded its picture (its bytes came back through the cookie-checked link). */
const loaded = (page: Page, selector: string) =>
  page.evaluate((s) => {
    const img = document.querySelector(s) as HTMLImageElement | null;
    return Boolean(img?.complete && img.naturalWidth > 0);
  }, selector);

/**
 * Files (issue 17): an administrator enables local storage and manages the attachments; a
 * teacher's avatar goes through put-file — too big and wrong types refused with the spec's
 * messages (the page's own check, then the server's reading of the content), a good png shown.
 */
describe('files: storage, attachments, the avatar upload', () => {
  let e2e: E2E;
  let admin: Page;
  let errors: string[];

  beforeAll(async () => {
    e2e = await startE2E();
    admin = await (await e2e.context()).newPage();
    errors = watchErrors(admin);
    await signIn(admin, ADMIN);
    await waitForMenu(admin);
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it('an administrator adds a local storage configuration and enables it', async () => {
    await openMenu(admin, 'oss', '/resource/oss/index', 'crud-table', 'resource');
    await admin.getByTestId('crud-add').click();
    const d = dialog(admin);
    await field(d, 'ossCode').fill('campus-disk');
    await admin.getByTestId('crud-dialog-save').click();
    await expect.poll(() => rowWith(admin, 'campus-disk').count()).toBe(1);
    await rowWith(admin, 'campus-disk').getByTestId('crud-row-enable').click();
    await admin.getByTestId('crud-confirm-action').click();
    await expect.poll(() => rowWith(admin, 'campus-disk').textContent()).toContain('已启用');
    await quiet(admin);
    await shot(admin, 'files-oss-zh');
  });

  it('uploads an attachment with progress: its thumbnail shows, and a file in no use is deleted', async () => {
    await openMenu(admin, 'attach', '/resource/attach/index', 'attach-page', 'resource');
    const chooser = admin.waitForEvent('filechooser');
    await admin.getByTestId('attach-upload').click();
    await (await chooser).setFiles({
      name: '园所平面图.png',
      mimeType: 'image/png',
      buffer: await png(800, 600, '#4a9'),
    });
    await notification(admin, '已上传：园所平面图.png');
    await expect.poll(() => rowWith(admin, '园所平面图.png').count()).toBe(1);
    const row = rowWith(admin, '园所平面图.png');
    expect(await row.textContent()).toContain('周明');
    await expect
      .poll(() => loaded(admin, '[data-testid="attach-thumb"] img, img[data-testid="attach-thumb"]'))
      .toBe(true);

    // Content its name contradicts: the server's message.
    const chooser2 = admin.waitForEvent('filechooser');
    await admin.getByTestId('attach-upload').click();
    await (await chooser2).setFiles({
      name: '计划.pdf',
      mimeType: 'application/pdf',
      buffer: await png(10, 10, '#000'),
    });
    await notification(admin, '文件内容与类型不符（.pdf）');
    await quiet(admin);
    await shot(admin, 'files-attach-zh');

    await setLanguage(admin, 'en');
    await admin.getByText('Uploaded by').first().waitFor();
    await quiet(admin);
    await shot(admin, 'files-attach-en');
    await setLanguage(admin, 'zh');

    await rowWith(admin, '园所平面图.png').getByTestId('crud-row-delete').click();
    await admin.getByTestId('crud-confirm-delete').click();
    await expect.poll(() => rowWith(admin, '园所平面图.png').count()).toBe(0);
    expect(await rows(admin).count()).toBeGreaterThanOrEqual(0);
    expect(errors).toEqual([]);
  });

  it('a 9 MB video goes to the attachments in parts, its progress beside the upload button', async () => {
    // Past the 8 MB threshold: two parts of 5 MB (init, 2 × upload-chunk, compose). Part 1 waits
    // until the progress is seen.
    const header = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.alloc(12)]);
    const video = Buffer.concat([header, Buffer.alloc(9 * 1024 * 1024 - header.length, 5)]);
    const parts: string[] = [];
    // A held route is kept, never awaited in its handler (an awaiting handler holds up the others).
    let heldPart: Route | null = null;
    await admin.route('**/api/upload/upload-chunk', async (route: Route) => {
      const index = /name="index"\r\n\r\n(\d+)/.exec(
        route.request().postDataBuffer()?.subarray(0, 2000).toString('latin1') ?? '',
      )?.[1];
      parts.push(String(index));
      if (index === '1') heldPart = route;
      else await route.continue();
    });
    const chooser = admin.waitForEvent('filechooser');
    await admin.getByTestId('attach-upload').click();
    await (await chooser).setFiles({ name: '六一汇演.mp4', mimeType: 'video/mp4', buffer: video });
    const progress = admin.getByTestId('attach-progress');
    await expect.poll(async () => Number(await progress.getAttribute('data-percent'))).toBeGreaterThanOrEqual(50);
    await quiet(admin);
    await admin.screenshot({ path: '/tmp/hH-attach-parts-zh.png' });
    await (heldPart as Route | null)?.continue();
    await notification(admin, '已上传：六一汇演.mp4');
    await expect.poll(() => rowWith(admin, '六一汇演.mp4').count()).toBe(1);
    expect(parts.sort()).toEqual(['0', '1']);
    expect(await rowWith(admin, '六一汇演.mp4').textContent()).toContain('9.0 MB');
    await admin.unrouteAll({ behavior: 'ignoreErrors' });
    expect(errors).toEqual([]);
  });

  it('a teacher’s avatar: too big and wrong types refused with the spec’s messages, a good png shown', async () => {
    const page = await (await e2e.context()).newPage();
    const pageErrors = watchErrors(page);
    await signIn(page, TEACHER);
    await page.goto('/info/index');
    await waitForMenu(page);
    const input = page.locator('[data-testid="profile-form"] input[type="file"]');

    await input.setInputFiles({ name: 'huge.png', mimeType: 'image/png', buffer: Buffer.alloc(600 * 1024, 1) });
    await expect.poll(() => page.getByTestId('avatar-error').textContent()).toBe('上传头像图片大小不能超过 500KB!');
    await input.setInputFiles({ name: 'cat.gif', mimeType: 'image/gif', buffer: GIF });
    await expect.poll(() => page.getByTestId('avatar-error').textContent()).toBe('上传头像图片只能是 JPG/PNG 格式!');
    // A gif named .png passes the page's check; the server reads its content and refuses it.
    await input.setInputFiles({ name: 'cat.png', mimeType: 'image/png', buffer: GIF });
    await notification(page, '上传头像图片只能是 JPG/PNG 格式!');
    await quiet(page);

    await input.setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: await png(256, 256, '#e85') });
    await notification(page, '头像上传成功，保存后生效');
    const avatar = page.locator('[data-testid="profile-form"] .mantine-Avatar-image');
    await expect.poll(() => avatar.getAttribute('src')).toMatch(/^\/api\/blade-resource\/attach\/download\/\d+$/);
    await expect.poll(() => loaded(page, '[data-testid="profile-form"] .mantine-Avatar-image')).toBe(true);
    await quiet(page);
    await shot(page, 'files-avatar-zh');

    await setLanguage(page, 'en');
    await input.setInputFiles({ name: 'cat.gif', mimeType: 'image/gif', buffer: GIF });
    await expect
      .poll(() => page.getByTestId('avatar-error').textContent())
      .toBe('The picture must be a JPG or PNG file!');
    await quiet(page);
    await shot(page, 'files-avatar-en');
    expect(pageErrors).toEqual([]);
  });
});
