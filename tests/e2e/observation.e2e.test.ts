/// <reference lib="dom" />
// Browser globals appear inside page.evaluate callbacks, which run in the page.
import { readFile } from 'node:fs/promises';
import { unzipSync } from 'fflate';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '../../services/core/src/permissions/demo';
import { docxText } from '../../services/core/src/records/export';
import { type E2E, shot, signIn, startE2E, watchErrors } from './support/app';

const TENANT = '100001';
const user = (account: string) => {
  if (!DEMO_ACCOUNTS.some((a) => a.account === account)) throw new Error(`no demo account ${account}`);
  return { tenant: TENANT, account, password: DEMO_PASSWORD };
};
const TEACHER = user('teacher1');
const COLLEAGUE = user('teacher2');
const REVIEWER = user('reviewer');

/** A 4×3 PNG: the photo a teacher adds (the server reads its type from the bytes). */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAQAAAADCAIAAAA7ljmRAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEElEQVQImWM4UaEBRww4OQBQxhDhRtmi7QAAAABJRU5ErkJggg==',
  'base64',
);

/** The start of a phone's HEIC photo (an ISO-BMFF `ftyp heic` box): taken by content, no browser thumbnail. */
const HEIC = (() => {
  const box = Buffer.alloc(24);
  box.writeUInt32BE(24, 0);
  box.write('ftypheicmif1heic', 4, 'latin1');
  return Buffer.concat([box, Buffer.alloc(3000, 0x5a)]);
})();

async function confirmModal(page: Page) {
  await page
    .getByRole('dialog')
    .getByRole('button', { name: /确定|Confirm/ })
    .click();
}

/** Picks the n-th option a Mantine select or multi-select offers (after typing `search`). */
async function pick(page: Page, testId: string, n: number, search?: string) {
  const input = page.getByTestId(testId).locator('input:not([type=hidden])').first();
  const target = (await input.count()) > 0 ? input : page.getByTestId(testId);
  await target.click();
  if (search) await target.fill(search);
  await page.getByRole('option').nth(n).click();
}

async function status(page: Page) {
  return page.getByTestId('record-status').first().getAttribute('data-status');
}

/**
 * Issue 18's journey on the record-family kit: a teacher writes an autonomous-play observation
 * with two children, two goals and a photo, and submits it; the reviewer returns it (a comment
 * is required); the teacher fixes and resubmits; the reviewer approves and marks it excellent;
 * the reviewer opens the per-child page of both children from the record's chips; a colleague
 * collects it; the Word export downloads a .docx with the photo inside, and two approved records
 * selected in the list download as one zip of two .docx through the job's progress dialog.
 */
describe('observations: write, return, fix, approve, excellent, collect', () => {
  let e2e: E2E;
  let teacher: Page;
  let reviewer: Page;
  let colleague: Page;
  let errors: string[][];
  const title = `搭高楼 ${Date.now() % 100000}`;
  let href = '';

  beforeAll(async () => {
    e2e = await startE2E();
    teacher = await (await e2e.context()).newPage();
    reviewer = await (await e2e.context()).newPage();
    colleague = await (await e2e.context()).newPage();
    errors = [watchErrors(teacher), watchErrors(reviewer), watchErrors(colleague)];
    await signIn(teacher, TEACHER);
    await signIn(reviewer, REVIEWER);
    await signIn(colleague, COLLEAGUE);
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it('the teacher writes an autonomous-play observation that saves itself, and submits it', async () => {
    await teacher.goto('/observation/list/index');
    await teacher.getByTestId('record-family-list').waitFor();
    await shot(teacher, 'observation-list-zh');
    await teacher.getByTestId('list-add').click();
    await teacher.getByTestId('list-add-play').click();
    await teacher.waitForURL('**/observation/autoObservationDetails');
    const editor = teacher.getByTestId('record-editor');
    await editor.waitFor();
    await teacher.getByTestId('field-title').fill(title);
    await teacher.getByTestId('field-date').fill('2026-11-26');
    await pick(teacher, 'field-classId', 0);
    await pick(teacher, 'field-studentIds', 0);
    await pick(teacher, 'field-studentIds', 0);
    await teacher.getByTestId('field-gameName').fill('建构游戏');
    await teacher.getByTestId('field-area').fill('建构区');
    await pick(teacher, 'field-goals', 0, '手的动作');
    await pick(teacher, 'field-goals', 0, '形状');
    await teacher.getByTestId('field-record').locator('.ProseMirror').click();
    await teacher.keyboard.type('两名幼儿合作用积木搭出了三层高楼。');
    await teacher.getByTestId('field-photos').locator('input[type=file]').setInputFiles({
      name: 'blocks.png',
      mimeType: 'image/png',
      buffer: PNG,
    });
    await expect.poll(() => teacher.getByTestId('photo').count()).toBe(1);
    // It saved itself: the address names the new record.
    await expect.poll(() => new URL(teacher.url()).searchParams.get('id')).toMatch(/^\d+$/);
    await expect.poll(() => teacher.getByTestId('save-status').getAttribute('data-kind')).toBe('saved');
    await shot(teacher, 'observation-editor-zh');
    await teacher.getByTestId('editor-submit').click();
    await confirmModal(teacher);
    await teacher.getByTestId('record-view').waitFor();
    await expect.poll(() => status(teacher)).toBe('trial');
    expect(await teacher.getByTestId('view-child').count()).toBe(2);
    expect(
      await teacher.getByTestId('view-goal').evaluateAll((els) => els.map((e) => e.getAttribute('data-code'))),
    ).toEqual(['health-2-3', 'science-2-3']);
    href = new URL(teacher.url()).pathname + new URL(teacher.url()).search;
    expect(href).toContain('/observation/autoObservationDetails?id=');
  });

  it('the reviewer cannot return it without a comment, then returns it with one', async () => {
    await reviewer.goto('/observation/trial/index');
    await reviewer.getByTestId('list-row').filter({ hasText: title }).getByTestId('list-open').click();
    await reviewer.getByTestId('record-view').waitFor();
    await reviewer.getByTestId('details-return').click();
    await reviewer.getByTestId('review-confirm').click();
    await expect.poll(() => reviewer.getByTestId('review-dialog').textContent()).toContain('退回时请填写原因');
    await reviewer.getByTestId('review-comment').fill('请补充教师支持的具体做法');
    await reviewer.getByTestId('review-confirm').click();
    await expect.poll(() => status(reviewer)).toBe('returned');
    await shot(reviewer, 'observation-details-zh');
  });

  it('the teacher sees why, fixes it and submits it again', async () => {
    await teacher.goto(href);
    await expect.poll(() => teacher.getByTestId('review-comment-shown').textContent()).toContain('请补充教师支持');
    await teacher.getByTestId('details-edit').click();
    await teacher.getByTestId('field-teacherSupport').locator('.ProseMirror').click();
    await teacher.keyboard.type('提供更多长条积木，鼓励幼儿讨论分工。');
    // A phone's HEIC photo: kept, shown as a placeholder with its name (the browser cannot draw it).
    await teacher.getByTestId('field-photos').locator('input[type=file]').setInputFiles({
      name: 'IMG_0042.HEIC',
      mimeType: 'image/heic',
      buffer: HEIC,
    });
    await expect.poll(() => teacher.getByTestId('photo').count()).toBe(2);
    await expect
      .poll(() => teacher.getByTestId('field-photos').getByTestId('photo-placeholder').textContent())
      .toContain('IMG_0042.HEIC');
    await teacher.getByTestId('editor-submit').click();
    await confirmModal(teacher);
    await expect.poll(() => status(teacher)).toBe('trial');
  });

  it('the reviewer approves it and marks it excellent; the history shows each step', async () => {
    await reviewer.goto(href);
    await reviewer.getByTestId('details-approve').click();
    await reviewer.getByTestId('review-confirm').click();
    await expect.poll(() => status(reviewer)).toBe('success');
    await reviewer.getByTestId('details-excellent').click();
    await expect.poll(() => reviewer.getByTestId('review-panel').textContent()).toContain('优秀');
    const types = () =>
      reviewer.getByTestId('history-entry').evaluateAll((els) => els.map((e) => e.getAttribute('data-event')));
    await expect.poll(types).toEqual(expect.arrayContaining(['submitted', 'returned', 'approved']));
    // The teacher's fix, field by field: the form's label, before → after.
    const fix = reviewer
      .locator('[data-event="updated"]')
      .getByTestId('history-change')
      .filter({ hasText: '提供更多长条积木' });
    await expect.poll(() => fix.getByTestId('history-change-field').first().textContent()).toBe('教师支持');
  });

  it('from its children chips the reviewer opens each child’s page: the record is there, with the domain chart', async () => {
    await reviewer.goto(href);
    await reviewer.getByTestId('record-view').waitFor();
    const chips = reviewer.getByTestId('view-child');
    await expect.poll(() => chips.count()).toBe(2);
    const ids = await chips.evaluateAll((els) => els.map((e) => e.getAttribute('data-id')));
    for (const [i, id] of ids.entries()) {
      if (i > 0) {
        await reviewer.goto(href);
        await reviewer.getByTestId('record-view').waitFor();
      }
      // A click that lands while the record re-renders (a busy machine) is clicked again, as a user would.
      await expect
        .poll(
          async () => {
            if (!reviewer.url().includes(`/guide/child/${id}`))
              await reviewer
                .getByTestId('view-child')
                .nth(i)
                .click({ timeout: 5000 })
                .catch(() => undefined);
            return reviewer.url().includes(`/guide/child/${id}`);
          },
          { timeout: 30_000, interval: 1000 },
        )
        .toBe(true);
      await reviewer.getByTestId('guide-child-page').waitFor();
      await expect.poll(() => reviewer.getByTestId('guide-record').filter({ hasText: title }).count()).toBe(1);
      await reviewer.getByTestId('guide-domain-chart').locator('.recharts-bar-rectangle').first().waitFor();
      const item = reviewer.getByTestId('guide-record').filter({ hasText: title });
      await expect.poll(() => item.getByTestId('photo-placeholder').getAttribute('title')).toBe('下载 IMG_0042.HEIC');
      if (i === 0) await shot(reviewer, 'observation-child-page-zh');
    }
  });

  it('exports it as a Word file holding its title and the photo', async () => {
    await reviewer.goto(href);
    await reviewer.getByTestId('details-export').waitFor();
    const [download] = await Promise.all([
      reviewer.waitForEvent('download'),
      reviewer.getByTestId('details-export').click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.docx$/);
    const bytes = new Uint8Array(await readFile(String(await download.path())));
    expect(await docxText(bytes)).toContain(title);
    expect(Object.keys(unzipSync(bytes)).some((name) => name.startsWith('word/media/'))).toBe(true);
  });

  it('selects two approved records in the list (photos as thumbnails) and exports them as one zip, with progress', async () => {
    await reviewer.goto('/observation/list/index');
    await reviewer.getByTestId('tab-approved').click();
    const mine = reviewer.getByTestId('list-row').filter({ hasText: title });
    await expect.poll(() => mine.count()).toBe(1);
    // The record's first photo as a small thumbnail in its row (the browser decoded it).
    const thumb = mine.getByTestId('list-photo').locator('img');
    await expect.poll(() => thumb.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    const other = reviewer.getByTestId('list-row').filter({ hasNotText: title }).first();
    await other.waitFor();
    const otherTitle = String(await other.getByTestId('list-open').textContent());
    await expect.poll(() => reviewer.getByTestId('list-export-zip').isDisabled()).toBe(true);
    await mine.getByTestId('list-select').click();
    await other.getByTestId('list-select').click();
    await expect.poll(() => reviewer.getByTestId('list-export-zip').textContent()).toContain('2');
    await shot(reviewer, 'observation-list-thumbs-zh');
    const [download] = await Promise.all([
      reviewer.waitForEvent('download'),
      reviewer.getByTestId('list-export-zip').click(),
    ]);
    const dialog = reviewer.getByTestId('export-progress');
    await expect.poll(() => dialog.getByTestId('export-progress-text').textContent()).toMatch(/已生成 2 个文件/);
    await shot(reviewer, 'observation-export-zh');
    expect(download.suggestedFilename()).toMatch(/\.zip$/);
    const entries = unzipSync(new Uint8Array(await readFile(String(await download.path()))));
    const docs = Object.keys(entries).filter((name) => name.endsWith('.docx'));
    expect(docs).toHaveLength(2);
    const texts = await Promise.all(docs.map((name) => docxText(entries[name] as Uint8Array)));
    expect(texts.some((text) => text.includes(title))).toBe(true);
    expect(texts.some((text) => text.includes(otherTitle.trim()))).toBe(true);
    await dialog.getByRole('button', { name: '关闭' }).click();
  });

  it('a colleague finds it among the excellent ones and collects it', async () => {
    await colleague.goto('/observation/list/index');
    await colleague.getByTestId('tab-excellent').click();
    await colleague.getByTestId('list-row').filter({ hasText: title }).getByTestId('list-open').click();
    await colleague.getByTestId('details-collect').click();
    await expect.poll(() => colleague.getByTestId('details-collect').getAttribute('data-collected')).toBe('true');
    await colleague.goto('/observation/list/index');
    await colleague.getByTestId('tab-favourites').click();
    await expect.poll(() => colleague.getByTestId('list-row').filter({ hasText: title }).count()).toBe(1);
  });

  it('the same screens in English', async () => {
    await teacher.evaluate(() => localStorage.setItem('sprout-language', 'en'));
    await teacher.goto('/observation/list/index');
    await teacher.getByTestId('record-family-list').waitFor();
    const row = teacher.getByTestId('list-row').filter({ hasText: title });
    await expect
      .poll(() =>
        row
          .getByTestId('list-photo')
          .locator('img')
          .evaluate((img) => (img as HTMLImageElement).naturalWidth),
      )
      .toBeGreaterThan(0);
    await row.getByTestId('list-select').click();
    await shot(teacher, 'observation-list-en');
    expect(await teacher.getByTestId('list-export-zip').textContent()).toBe('Export Word (zip, 1)');
    const [zip] = await Promise.all([teacher.waitForEvent('download'), teacher.getByTestId('list-export-zip').click()]);
    expect(zip.suggestedFilename()).toMatch(/^observations-.*\.zip$/);
    await expect
      .poll(() => teacher.getByTestId('export-progress-text').textContent())
      .toMatch(/^Word files made: 1; downloading observations-/);
    await shot(teacher, 'observation-export-en');
    await teacher.getByTestId('export-progress').getByRole('button', { name: 'Close' }).click();
    await teacher.goto(href);
    await teacher.getByTestId('record-view').waitFor();
    const placeholder = teacher.getByTestId('record-view').getByTestId('photo-placeholder');
    await expect.poll(() => placeholder.getAttribute('title')).toBe('Download IMG_0042.HEIC');
    const [heic] = await Promise.all([teacher.waitForEvent('download'), placeholder.click()]);
    expect(heic.suggestedFilename()).toBe('IMG_0042.HEIC');
    await teacher.getByTestId('photo-strip').scrollIntoViewIfNeeded();
    await shot(teacher, 'observation-details-photos-en');
    await teacher.evaluate(() => window.scrollTo(0, 0));
    await shot(teacher, 'observation-details-en');
    expect(errors.flat()).toEqual([]);
  });

  it('on a phone (390 × 844) the list is cards: title, status, photo, actions, nothing wider than the screen', async () => {
    const phone = await (await e2e.context({ viewport: { width: 390, height: 844 } })).newPage();
    await signIn(phone, TEACHER);
    await phone.goto('/observation/list/index');
    const card = phone.getByTestId('list-cards').getByTestId('list-row').filter({ hasText: title });
    await card.getByTestId('list-photo').waitFor();
    await card.getByTestId('list-row-status').waitFor();
    await card.getByTestId('list-row-actions').waitFor();
    const width = await phone.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    await shot(phone, 'observation-list-phone');
  });
});
