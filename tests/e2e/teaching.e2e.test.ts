/// <reference lib="dom" />
import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '../../services/core/src/permissions/demo';
import { type E2E, SCREENSHOTS, shot, signIn, startE2E, watchErrors } from './support/app';

const TENANT = '100001';
const user = (account: string) => {
  if (!DEMO_ACCOUNTS.some((a) => a.account === account)) throw new Error(`no demo account ${account}`);
  return { tenant: TENANT, account, password: DEMO_PASSWORD };
};

/** Picks the n-th option a Mantine select offers (after typing `search`), within `scope`. */
async function pick(page: Page, testId: string, n: number, search?: string) {
  const input = page.getByTestId(testId).locator('input:not([type=hidden])').first();
  const target = (await input.count()) > 0 ? input : page.getByTestId(testId);
  await target.click();
  if (search) await target.fill(search);
  await page.getByRole('option').nth(n).click();
}

const status = (page: Page) => page.getByTestId('record-status').first().getAttribute('data-status');

/** Screens of this journey, kept also where the session's screenshots are looked at. */
async function keep(page: Page, name: string) {
  await shot(page, name);
  const dir = process.env.SPROUT_SHOTS_DIR;
  if (dir) {
    await mkdir(dir, { recursive: true });
    await copyFile(join(SCREENSHOTS, `${name}.png`), join(dir, `${name}.png`));
  }
}

/**
 * Issue 19 part A's journey: a director (the reviewer) records a half-day visit of 小一班 with
 * three segments and submits it; the class's teacher1 finds it waiting for her reply, reads it
 * and answers it. Then every new menu entry and detail route opens a real screen (no "coming
 * soon"), in Chinese and in English.
 */
describe('teaching: a half-day visit recorded and answered; every teaching screen opens', () => {
  let e2e: E2E;
  let director: Page;
  let teacher: Page;
  let errors: string[][];
  let visitUrl = '';

  beforeAll(async () => {
    e2e = await startE2E();
    const context = await e2e.context();
    director = await context.newPage();
    teacher = await (await e2e.context()).newPage();
    errors = [watchErrors(director), watchErrors(teacher)];
    await signIn(director, user('reviewer'));
    await signIn(teacher, user('teacher1'));
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it('the director records a visit of 小一班 with three items and submits it', async () => {
    await director.goto('/halfFollow/list/index');
    await director.getByTestId('record-family-list').waitFor();
    await director.getByTestId('list-add').click();
    await director.waitForURL('**/halfFollow/halfFollowDetails');
    await director.getByTestId('record-editor').waitFor();
    await director.getByTestId('field-title').fill('小一班半日跟进（e2e）');
    await pick(director, 'field-classId', 0, '小一');
    await director.getByTestId('field-visitDate').fill('2026-11-25');
    // It saves itself: the address names the new visit, and its items can be added.
    await expect.poll(() => new URL(director.url()).searchParams.get('id')).toMatch(/^\d+$/);
    visitUrl = `/halfFollow/halfFollowDetails?id=${new URL(director.url()).searchParams.get('id')}`;
    const items: Array<[string, number, string, string, string]> = [
      ['08:10', 1, '幼儿自主选择晨间活动材料', '材料丰富', '增加记录表'],
      ['09:30', 2, '集体教学《小兔乖乖》', '提问开放', '多给幼儿等待时间'],
      ['10:20', 4, '户外跳圈游戏', '运动量适宜', '关注个别幼儿'],
    ];
    for (const [time, segment, observed, strengths, suggestions] of items) {
      await director.getByTestId('item-add').click();
      const dialog = director.getByRole('dialog');
      await dialog.getByTestId('field-time').fill(time);
      await pick(director, 'field-segment', segment);
      await dialog.getByTestId('field-observed').fill(observed);
      await dialog.getByTestId('field-strengths').fill(strengths);
      await dialog.getByTestId('field-suggestions').fill(suggestions);
      await dialog.getByTestId('item-save').click();
      await dialog.waitFor({ state: 'hidden' });
    }
    await expect.poll(() => director.getByTestId('item-row').count()).toBe(3);
    await expect.poll(() => director.getByTestId('save-status').getAttribute('data-kind')).toBe('saved');
    await keep(director, 'teaching-visit-editor-zh');
    await director.getByTestId('editor-submit').click();
    await director
      .getByRole('dialog')
      .getByRole('button', { name: /确定|Confirm/ })
      .click();
    await director.getByTestId('record-view').waitFor();
    await expect.poll(() => status(director)).toBe('trial');
    expect(await director.getByTestId('item-row').count()).toBe(3);
    // Submitted, the visit's items are written no more.
    expect(await director.getByTestId('item-add').count()).toBe(0);
  });

  it('teacher1 finds it waiting for her reply, reads it and answers it', async () => {
    await teacher.goto('/halfFollow/list/index');
    await teacher.getByTestId('tab-trial').click();
    const row = teacher.getByTestId('list-row').filter({ hasText: '小一班半日跟进（e2e）' });
    await expect.poll(() => row.count()).toBe(1);
    await keep(teacher, 'teaching-visit-queue-zh');
    await row.getByTestId('list-open').click();
    await teacher.getByTestId('record-view').waitFor();
    await expect.poll(() => teacher.getByTestId('item-row').count()).toBe(3);
    expect(await teacher.getByTestId('record-items').innerText()).toContain('多给幼儿等待时间');
    expect(await teacher.getByTestId('details-return').count()).toBe(0);
    await teacher.getByTestId('details-approve').click();
    // A reply needs its words.
    await teacher.getByTestId('review-confirm').click();
    await teacher.getByText('请填写回复内容').waitFor();
    await teacher.getByTestId('review-comment').fill('谢谢园长指导，明天起集体教学多留等待时间。');
    await teacher.getByTestId('review-confirm').click();
    await expect.poll(() => status(teacher)).toBe('success');
    await teacher.getByTestId('review-comment-shown').waitFor();
    expect(await teacher.getByTestId('review-comment-shown').innerText()).toContain('谢谢园长指导');
    await keep(teacher, 'teaching-visit-replied-zh');
    // The director sees the reply.
    await director.goto(visitUrl);
    await director.getByTestId('review-comment-shown').waitFor();
    expect(await director.getByTestId('review-comment-shown').innerText()).toContain('明天起');
  });

  it('a research activity carries a PDF attachment: listed with name and size, shown on the record, downloaded', async () => {
    await teacher.goto('/teacher_research/listResearch/index');
    await teacher.getByTestId('record-family-list').waitFor();
    await teacher.getByTestId('list-add').click();
    await teacher.getByTestId('record-editor').waitFor();
    await teacher.getByTestId('field-title').fill('绘本共读教研（e2e）');
    await teacher.getByTestId('field-date').fill('2026-11-24');
    await pick(teacher, 'field-form', 0);
    await pick(teacher, 'field-hostId', 0, '王');
    await expect.poll(() => new URL(teacher.url()).searchParams.get('id')).toMatch(/^\d+$/);
    await teacher.getByTestId('record-editor').waitFor();
    const chooser = teacher.waitForEvent('filechooser');
    await teacher.getByTestId('field-attachments-add').click();
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
    await (await chooser).setFiles({ name: '教研方案.pdf', mimeType: 'application/pdf', buffer: pdf });
    const listed = teacher.getByTestId('field-attachments').getByTestId('attachment');
    await expect.poll(() => listed.count()).toBe(1);
    expect(await listed.getByTestId('attachment-name').innerText()).toBe('教研方案.pdf');
    expect(await listed.getByTestId('attachment-size').innerText()).toBe(`${pdf.length} B`);
    await expect.poll(() => teacher.getByTestId('save-status').getAttribute('data-kind')).toBe('saved');
    await teacher.getByTestId('field-attachments').scrollIntoViewIfNeeded();
    await keep(teacher, 'teaching-research-attachments-editor-zh');
    await teacher.getByTestId('editor-done').click();
    // The printed record names it, with its size; it downloads under its name.
    const shown = teacher.getByTestId('record-view').getByTestId('attachment');
    await expect.poll(() => shown.count()).toBe(1);
    await expect.poll(() => shown.getByTestId('attachment-size').count()).toBe(1);
    expect(await shown.getByTestId('attachment-name').innerText()).toBe('教研方案.pdf');
    const download = teacher.waitForEvent('download');
    await shown.getByTestId('attachment-download').click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('教研方案.pdf');
    await keep(teacher, 'teaching-research-attachments-record-zh');
    await teacher.evaluate(() => localStorage.setItem('sprout-language', 'en'));
    await teacher.reload();
    await teacher.getByTestId('record-view').getByTestId('attachment-size').waitFor();
    await keep(teacher, 'teaching-research-attachments-record-en');
    await teacher.evaluate(() => localStorage.setItem('sprout-language', 'zh-CN'));
    // Removed from the form, it is gone from the record once saved.
    const url = new URL(teacher.url());
    await teacher.goto(`${url.pathname}?id=${url.searchParams.get('id')}&mode=edit`);
    await teacher.getByTestId('field-attachments').getByTestId('attachment-remove').click();
    await expect.poll(() => teacher.getByTestId('field-attachments').getByTestId('attachment').count()).toBe(0);
    await expect.poll(() => teacher.getByTestId('save-status').getAttribute('data-kind')).toBe('saved');
  });

  it('two teachers of 小一班 write one class summary at once, see each other, and save it as a version', async () => {
    const second = await (await e2e.context()).newPage();
    errors.push(watchErrors(second));
    await signIn(second, user('teacher2'));
    await teacher.goto('/classSummary/list/index');
    await teacher.getByTestId('record-family-list').waitFor();
    await teacher.getByTestId('list-add').click();
    await teacher.getByTestId('record-editor').waitFor();
    await teacher.getByTestId('field-title').fill('小一班学期总结（e2e）');
    await pick(teacher, 'field-classId', 0, '小一');
    // Saved once, the editor joins the record's live document.
    await expect.poll(() => new URL(teacher.url()).searchParams.get('id')).toMatch(/^\d+$/);
    const id = new URL(teacher.url()).searchParams.get('id');
    await expect.poll(() => teacher.getByTestId('live-bar').getAttribute('data-status')).toBe('live');
    await second.evaluate(() => localStorage.setItem('sprout-language', 'en'));
    await second.goto(`/classSummary/classSummaryDetails?id=${id}&mode=edit`);
    await expect.poll(() => second.getByTestId('live-bar').getAttribute('data-status')).toBe('live');
    // Each sees the other editing.
    await expect.poll(() => teacher.getByTestId('live-peer-names').textContent()).toContain('刘');
    await expect.poll(() => second.getByTestId('live-peer-names').textContent()).toContain('王');
    const editor = (page: Page, field: string) => page.getByTestId(`field-${field}`).locator('.ProseMirror');
    // Both type at once, into two fields of the one document.
    await editor(teacher, 'highlights').click();
    await editor(second, 'problems').click();
    await Promise.all([
      teacher.keyboard.type('孩子们在种植角观察豆芽生长', { delay: 20 }),
      second.keyboard.type('午睡后整理衣物较慢', { delay: 20 }),
    ]);
    await expect.poll(() => second.getByTestId('field-highlights').innerText()).toContain('孩子们在种植角观察豆芽生长');
    await expect.poll(() => teacher.getByTestId('field-problems').innerText()).toContain('午睡后整理衣物较慢');
    // The title typed by one reaches the other.
    await expect.poll(() => second.getByTestId('field-title').inputValue()).toBe('小一班学期总结（e2e）');
    await teacher.getByTestId('live-bar').scrollIntoViewIfNeeded();
    await keep(teacher, 'teaching-class-summary-live-zh');
    await keep(second, 'teaching-class-summary-live-en');
    // Saved as a version: the record as stored holds both teachers' text.
    await teacher.getByTestId('editor-save').click();
    await teacher.getByText('已保存为新版本').waitFor();
    await teacher.getByTestId('editor-done').click();
    const view = teacher.getByTestId('record-view');
    await view.waitFor();
    await expect.poll(() => view.innerText()).toContain('孩子们在种植角观察豆芽生长');
    expect(await view.innerText()).toContain('午睡后整理衣物较慢');
    await second.close();
  });

  const SCREENS: Array<[string, string]> = [
    ['/teacher_plan/list/index', 'plans'],
    ['/teacher_research/listResearch/index', 'research'],
    ['/teacher_research/listResearch', 'research-route'],
    ['/teacher_project/list/index', 'projects'],
    ['/classWork/list/index', 'class-work'],
    ['/classSummary/list/index', 'class-summary'],
    ['/halfFollow/list/index', 'visits'],
  ];
  const DETAILS = [
    '/teacher_plan/planDetails',
    '/teacher_research/researchDetails',
    '/classWork/classWorkDetails',
    '/classSummary/classSummaryDetails',
    '/halfFollow/halfFollowDetails',
  ];

  for (const lang of ['zh', 'en'] as const) {
    it(`every teaching list opens, none coming soon (${lang})`, async () => {
      await director.evaluate((l) => localStorage.setItem('sprout-language', l === 'en' ? 'en' : 'zh-CN'), lang);
      for (const [path, name] of SCREENS) {
        await director.goto(path);
        await director.getByTestId('record-family-list').waitFor();
        // The approved tab: the demo's records (and the visit answered above).
        await director.getByTestId('tab-approved').click();
        await expect.poll(() => director.getByTestId('list-row').count(), { message: path }).toBeGreaterThan(0);
        expect(await director.getByTestId('coming-soon').count(), path).toBe(0);
        await keep(director, `teaching-${name}-${lang}`);
      }
      for (const path of DETAILS) {
        await director.goto(path);
        await director.getByTestId('record-editor').waitFor();
        expect(await director.getByTestId('coming-soon').count(), path).toBe(0);
      }
    });

    it(`a record of each teaching kind opens from its list, as printed (${lang})`, async () => {
      for (const [path, name] of SCREENS.filter(([, n]) => n !== 'research-route')) {
        await director.goto(path);
        await director.getByTestId('record-family-list').waitFor();
        await director.getByTestId('tab-approved').click();
        await director.getByTestId('list-open').first().click();
        await director.getByTestId('record-view').waitFor();
        await keep(director, `teaching-${name}-record-${lang}`);
      }
      await director.goto(visitUrl);
      await director.getByTestId('record-items').waitFor();
      await keep(director, `teaching-visit-record-${lang}`);
    });
  }

  it('no page error', () => {
    expect(errors.flat()).toEqual([]);
  });
});
