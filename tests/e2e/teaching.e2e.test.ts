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

  for (const lang of ['zh', 'en'] as const)
    it(`every teaching screen opens, none coming soon (${lang})`, async () => {
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
      // A record of each kind opens from its list (the first row), as printed.
      for (const [path, name] of SCREENS.filter(([, n]) => n !== 'research-route')) {
        await director.goto(path);
        await director.getByTestId('tab-approved').click();
        await director.getByTestId('list-open').first().click();
        await director.getByTestId('record-view').waitFor();
        await keep(director, `teaching-${name}-record-${lang}`);
      }
      await director.goto(visitUrl);
      await director.getByTestId('record-items').waitFor();
      await keep(director, `teaching-visit-record-${lang}`);
    });

  it('no page error', () => {
    expect(errors.flat()).toEqual([]);
  });
});
