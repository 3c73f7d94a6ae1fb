/// <reference lib="dom" />
import { mkdirSync, writeFileSync } from 'node:fs';
import type { Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minimalPdf } from '../../services/api/src/modules/file/doc-fixtures';
import { DEMO_PASSWORD } from '../../services/core/src/permissions/demo';
import { type E2E, signIn, startE2E, waitForMenu, watchErrors } from './support/app';
import { dialog, notification, openMenu, quiet, rowWith, setLanguage } from './support/crud';

const TEACHER = { tenant: '100001', account: 'teacher1', password: DEMO_PASSWORD };
const ADMIN = { tenant: '100001', account: 'admin', password: DEMO_PASSWORD };

/**
 * Issue 17, the file library: a teacher opens 资源文件, chooses a kind in the tree, uploads a
 * PDF into it (the progress shows), sees it listed under the kind and its parent, and opens its
 * preview (the PDF frame loads the file) — in Chinese, then in English.
 */
describe('library → files (upload, list, preview)', () => {
  let e2e: E2E;
  let page: Page;
  let errors: string[];
  let bearer = '';

  const kindId = async (title: string) => {
    const r = await fetch(`${e2e.server.url}/api/file/fileKind/kindTree`, {
      headers: { Authorization: `Basic ${Buffer.from('saber:saber_secret').toString('base64')}`, 'Blade-Auth': bearer },
    });
    type Node = { id: string; title: string; children?: Node[] };
    const flat = (ns: Node[]): Node[] => ns.flatMap((n) => [n, ...flat(n.children ?? [])]);
    return (flat((await r.json()).data as Node[]).find((n) => n.title === title) as Node).id;
  };

  beforeAll(async () => {
    e2e = await startE2E();
    page = await (await e2e.context()).newPage();
    errors = watchErrors(page);
    page.on('request', (r) => {
      const value = r.headers()['blade-auth'];
      if (value) bearer = value;
    });
    await signIn(page, TEACHER);
    await waitForMenu(page);
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it('uploads a PDF into a kind, lists it there and previews it', async () => {
    await openMenu(page, 'file', '/file/file/index', 'library-page', 'library');
    const courseware = await kindId('课件');
    await page.getByTestId(`crud-side-node-${courseware}`).click();

    await page.getByTestId('file-upload').click();
    const d = page.getByTestId('file-upload-dialog');
    await d.waitFor();
    // The dialog starts on the kind chosen in the tree.
    await expect.poll(() => page.getByTestId('file-upload-kind').inputValue()).toBe('教学资源 / 课件');
    await d.locator('input[type="file"]').setInputFiles({
      name: '春季绘本课件.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from(minimalPdf([['Spring picture books']])),
    });
    await page.screenshot({ path: '/tmp/hB-library-upload-zh.png' });
    await page.getByTestId('file-upload-submit').click();
    await notification(page, '「春季绘本课件.pdf」已上传');
    await d.waitFor({ state: 'hidden' });
    const row = rowWith(page, '春季绘本课件.pdf');
    await row.waitFor();
    expect(await row.textContent()).toContain('课件');

    // Listed under the parent kind too, not under another root.
    await page.getByTestId(`crud-side-node-${await kindId('教学资源')}`).click();
    await rowWith(page, '春季绘本课件.pdf').waitFor();
    await page.getByTestId(`crud-side-node-${await kindId('园所文档')}`).click();
    await expect.poll(() => rowWith(page, '春季绘本课件.pdf').count()).toBe(0);
    await page.getByTestId('crud-side-all').click();
    await rowWith(page, '春季绘本课件.pdf').waitFor();

    // The preview: the PDF frame loads the file through the API.
    const pdfAnswer = page.waitForResponse((r) => r.url().includes('/api/blade-resource/attach/download/'));
    await rowWith(page, '春季绘本课件.pdf').getByTestId('file-row-preview').click();
    await page.getByTestId('file-preview-frame').waitFor();
    const answer = await pdfAnswer;
    expect(answer.status()).toBe(200);
    expect(answer.headers()['content-type']).toContain('application/pdf');
    await quiet(page);
    await page.screenshot({ path: '/tmp/hB-library-preview-zh.png' });
    await dialog(page)
      .getByRole('button', { name: 'Close' })
      .click()
      .catch(() => page.keyboard.press('Escape'));
    await page.getByTestId('file-preview').waitFor({ state: 'hidden' });
    await page.screenshot({ path: '/tmp/hB-library-zh.png' });

    await setLanguage(page, 'en');
    await page.getByText('All categories').waitFor();
    await page.getByTestId('file-upload').click();
    await page.getByText('Upload to the library').waitFor();
    await page.screenshot({ path: '/tmp/hB-library-upload-en.png' });
    await page.keyboard.press('Escape');
    await page.getByTestId('file-upload-dialog').waitFor({ state: 'hidden' });
    await page.screenshot({ path: '/tmp/hB-library-en.png' });
    expect(errors).toEqual([]);
  });

  it('a big PDF goes in resumable parts: cancelled half-way, chosen again it sends only the missing parts', async () => {
    // 20 MB and a little: five parts of 5 MB (the last a few hundred bytes). A file on disk, as a
    // user's is, so choosing it again is the same file (name, size, modification time).
    mkdirSync('/tmp/hH-e2e', { recursive: true });
    const path = '/tmp/hH-e2e/全园课程资源合集.pdf';
    writeFileSync(path, minimalPdf([['All courses of the year']], 20 * 1024 * 1024));
    const indexOf = (route: Route) =>
      Number(
        /name="index"\r\n\r\n(\d+)/.exec(
          route.request().postDataBuffer()?.subarray(0, 2000).toString('latin1') ?? '',
        )?.[1],
      );
    const received: number[] = [];
    let hold: (index: number) => boolean = (index) => index >= 2;
    const held: Route[] = [];
    await page.route('**/api/upload/upload-chunk', async (route) => {
      const index = indexOf(route);
      if (hold(index)) {
        held.push(route); // the part hangs in the air, as on a dropped connection
        return;
      }
      const answer = await route.fetch();
      if (answer.status() === 200) received.push(index);
      await route.fulfill({ response: answer });
    });

    // English (the first journey ended there): the first try, parts 0 and 1 arrive, the others hang.
    await page.getByTestId(`crud-side-node-${await kindId('教学资源')}`).click();
    await page.getByTestId('file-upload').click();
    const d = page.getByTestId('file-upload-dialog');
    await d.locator('input[type="file"]').setInputFiles(path);
    await page.getByTestId('file-upload-submit').click();
    const progress = page.getByTestId('file-upload-progress');
    await progress.getByText('Part 2 of 5').waitFor();
    expect(received.sort()).toEqual([0, 1]);
    expect(Number(await progress.getAttribute('data-percent'))).toBeGreaterThanOrEqual(39);
    await page.screenshot({ path: '/tmp/hH-library-parts-en.png' });
    await page.getByTestId('file-upload-progress-cancel').click();
    await notification(page, 'Upload cancelled');
    await progress.waitFor({ state: 'hidden' });
    await page.keyboard.press('Escape');
    await d.waitFor({ state: 'hidden' });

    // Chinese, the same file again: the server has parts 0 and 1, only 2, 3, 4 are sent.
    await setLanguage(page, 'zh');
    held.length = 0;
    hold = (index) => index === 4;
    await page.getByTestId('file-upload').click();
    await d.locator('input[type="file"]').setInputFiles(path);
    await page.getByTestId('file-upload-submit').click();
    await progress.getByText('分片 4 / 5').waitFor();
    expect(await page.getByTestId('file-upload-progress-resumed').textContent()).toBe(
      '断点续传：服务器已有 2 个分片，只发送其余部分',
    );
    await quiet(page);
    await page.screenshot({ path: '/tmp/hH-library-resume-zh.png' });
    hold = () => false;
    for (const route of held.splice(0)) {
      const answer = await route.fetch();
      if (answer.status() === 200) received.push(indexOf(route));
      await route.fulfill({ response: answer });
    }
    await notification(page, '「全园课程资源合集.pdf」已上传');
    await d.waitFor({ state: 'hidden' });
    expect(received.sort()).toEqual([0, 1, 2, 3, 4]);
    const row = rowWith(page, '全园课程资源合集.pdf');
    await row.waitFor();
    // Its size in bytes: the whole file, joined from the parts.
    expect(await row.textContent()).toMatch(/2097\d{4}/);
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    expect(errors).toEqual([]);
  });

  it('an administrator manages kinds and types and reads the text recognised from the PDF', async () => {
    const admin = await (await e2e.context()).newPage();
    const adminErrors = watchErrors(admin);
    await signIn(admin, ADMIN);
    await waitForMenu(admin);
    await openMenu(admin, 'file_kind', '/file/fileKind/index', 'file_kind-page', 'library');
    await rowWith(admin, '教学资源').waitFor();
    await admin.screenshot({ path: '/tmp/hB-kinds-zh.png' });
    await openMenu(admin, 'file_type', '/file/filetype/index', 'file_type-page', 'library');
    await rowWith(admin, 'PDF 文档').waitFor();
    await admin.screenshot({ path: '/tmp/hB-types-zh.png' });
    await openMenu(admin, 'file_identify', '/file/fileidentify/index', 'file_identify-page', 'library');
    await admin.getByTestId('identify-start').click();
    await admin.getByTestId('identify-file').click();
    await admin.getByRole('option', { name: /春季绘本课件\.pdf/ }).click();
    await admin.getByTestId('identify-submit').click();
    const text = admin.getByTestId('identify-text');
    await text.getByText('Spring picture books').waitFor();
    await quiet(admin);
    await admin.screenshot({ path: '/tmp/hB-identify-text-zh.png' });
    await admin.keyboard.press('Escape');
    await text.waitFor({ state: 'hidden' });
    await rowWith(admin, '春季绘本课件.pdf').waitFor();
    await setLanguage(admin, 'en');
    await rowWith(admin, 'Done').waitFor();
    await admin.screenshot({ path: '/tmp/hB-identify-en.png' });
    await openMenu(admin, 'file_type', '/file/filetype/index', 'file_type-page', 'library');
    await admin.getByText('Largest size (MB)').waitFor();
    await admin.screenshot({ path: '/tmp/hB-types-en.png' });
    expect(adminErrors).toEqual([]);
  });
});
