/// <reference lib="dom" />
// Browser globals appear inside page.evaluate callbacks, which run in the page.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '../../services/core/src/permissions/demo';
import { type E2E, shot, signIn, startE2E, watchErrors } from './support/app';

const TENANT = '100001';
const user = (account: string) => {
  const found = DEMO_ACCOUNTS.find((a) => a.account === account);
  if (!found) throw new Error(`no demo account ${account}`);
  return { tenant: TENANT, account, password: DEMO_PASSWORD };
};

/** The number a list's footer shows (共 3 条 / 3 in total). */
async function listTotal(page: Page): Promise<number> {
  const text = (await page.getByTestId('list-total').textContent()) ?? '';
  return Number(/\d+/.exec(text)?.[0] ?? Number.NaN);
}

/** The figure in an element, as a number. */
const figure = async (page: Page, testId: string) =>
  Number(/\d+/.exec((await page.getByTestId(testId).first().textContent()) ?? '')?.[0] ?? Number.NaN);

/**
 * Issue 23 as a teaching team lives it (items 1, 2, 4, 7, 9): the other-grade teacher collects
 * the school's excellent plan and finds it in 我的收藏; teacher2 finds teacher1's new draft in
 * her 我的备课; 新增备课 moves to a week without a plan and opens the one that exists instead
 * of writing a second; every dashboard figure equals the total of the list it opens; the
 * templates page writes a template. In Chinese, and the shared lists once in English.
 */
describe('weekly plans as a teaching team', () => {
  let e2e: E2E;
  let teacher1: Page;
  let teacher2: Page;
  let teacher3: Page;
  let reviewer: Page;
  let errors: string[][];
  const theme = `团队周 ${Date.now() % 100000}`;
  let weekId = '';
  let weekNo = 0;

  beforeAll(async () => {
    e2e = await startE2E();
    const pages = await Promise.all([0, 1, 2, 3].map(async () => (await e2e.context()).newPage()));
    [teacher1, teacher2, teacher3, reviewer] = pages as [Page, Page, Page, Page];
    errors = pages.map(watchErrors);
    await Promise.all([
      signIn(teacher1, user('teacher1')),
      signIn(teacher2, user('teacher2')),
      signIn(teacher3, user('teacher3')),
      signIn(reviewer, user('reviewer')),
    ]);
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it('the 中一班 teacher sees the school’s excellent plan of 小一班, opens it, collects it and finds it in 我的收藏', async () => {
    await teacher3.goto('/week/excellent/index');
    const row = teacher3.getByTestId('list-row').filter({ hasText: '小一班' }).first();
    await row.waitFor();
    await shot(teacher3, 'week-excellent-shared');
    // The demo has her holding it already: uncollect, then collect again.
    await expect.poll(() => row.getByTestId('list-collect').getAttribute('aria-label')).toBe('取消收藏');
    await row.getByTestId('list-collect').click();
    await expect.poll(() => row.getByTestId('list-collect').getAttribute('aria-label')).toBe('收藏');
    await teacher3.goto('/week/favorite/index');
    await teacher3.getByTestId('week-favorite').waitFor();
    await expect.poll(() => teacher3.getByTestId('list-empty').count()).toBe(1);
    await teacher3.goto('/week/excellent/index');
    await row.getByTestId('list-collect').click();
    await expect.poll(() => row.getByTestId('list-collect').getAttribute('aria-label')).toBe('取消收藏');
    await teacher3.goto('/week/favorite/index');
    await expect.poll(() => teacher3.getByTestId('list-row').filter({ hasText: '小一班' }).count()).toBe(1);
    await shot(teacher3, 'week-favorite-shared');
    // Opening it shows its week, read-only: the frame of the excellent plan.
    await teacher3.getByTestId('list-row').first().getByTestId('list-open').click();
    await teacher3.waitForURL('**/weekdetails/details?id=*');
    await teacher3.getByTestId('week-details').waitFor();
    await expect.poll(() => teacher3.getByTestId('week-not-found').count()).toBe(0);
    await expect.poll(() => teacher3.getByTestId('week-sheet').count()).toBe(1);
    await shot(teacher3, 'week-excellent-opened');
  });

  it('teacher2 finds the draft teacher1 just created for 小一班 in her 我的备课', async () => {
    await teacher1.goto('/week/week/');
    await teacher1.getByTestId('week-editor').waitFor();
    await teacher1.getByTestId('week-theme').fill(theme);
    await expect
      .poll(() => teacher1.getByTestId('save-status').getAttribute('data-kind'), { timeout: 20_000 })
      .toBe('saved');
    weekId = new URL(teacher1.url()).searchParams.get('id') ?? '';
    expect(weekId).toMatch(/^\d+$/);
    weekNo = Number(await teacher1.getByTestId('week-no').inputValue());
    // The tab says what the page is now: editing.
    await expect.poll(() => teacher1.getByTestId('tab').filter({ hasText: '编辑备课' }).count()).toBe(1);

    await teacher2.goto('/week/mine/index');
    await teacher2.getByTestId('filter-theme').fill(theme);
    await teacher2.getByTestId('list-search').click();
    await expect.poll(() => teacher2.getByTestId('list-row').filter({ hasText: theme }).count()).toBe(1);
    await shot(teacher2, 'week-mine-team');
  });

  it('新增备课 proposes a week without a plan, and a week that has one is opened, never written twice', async () => {
    await teacher1.goto('/week/week/');
    await teacher1.getByTestId('week-editor').waitFor();
    await expect.poll(() => teacher1.getByTestId('tab').filter({ hasText: '新增备课' }).count()).toBe(1);
    // The class's weeks are read and the form moved to one without a plan: not the one just written.
    await teacher1.getByTestId('week-slot-free').waitFor({ state: 'attached' });
    await expect.poll(async () => Number(await teacher1.getByTestId('week-no').inputValue())).not.toBe(weekNo);
    await expect.poll(() => teacher1.getByTestId('week-slot-taken').count()).toBe(0);
    // Choosing the written week's number names it and offers to open it.
    await teacher1.getByTestId('week-no').fill(String(weekNo));
    await teacher1.getByTestId('week-slot-taken').waitFor();
    await shot(teacher1, 'week-new-slot-taken');
    await teacher1.getByTestId('week-slot-open').click();
    await teacher1.waitForURL(`**/week/week/?id=${weekId}`);
    // Only one week of 小一班 has that number.
    await teacher2.goto('/week/mine/index');
    await teacher2.getByTestId('filter-theme').fill('');
    await teacher2.getByTestId('filter-weekNo').fill(String(weekNo));
    await teacher2.getByTestId('list-search').click();
    await expect.poll(() => teacher2.getByTestId('list-row').filter({ hasText: '小一班' }).count()).toBe(1);
  });

  it('every dashboard figure equals the total of the list it opens', async () => {
    const check = async (page: Page, testId: string, click: string, list: string) => {
      await page.goto('/wel/index');
      await page.getByTestId('week-dashboard').waitFor();
      const n = await figure(page, testId);
      await page.getByTestId(click).first().click();
      await page.getByTestId(list).waitFor();
      await expect.poll(() => listTotal(page), { message: testId }).toBe(n);
      return n;
    };
    // teacher1's to-dos open 我的备课 filtered by status; the excellent figure opens 优秀教案.
    expect(await check(teacher1, 'dashboard-todo-drafts', 'dashboard-todo-drafts', 'week-mine')).toBeGreaterThan(0);
    await expect.poll(() => teacher1.getByTestId('filter-status').inputValue()).toBe('草稿');
    await check(teacher1, 'dashboard-todo-returned', 'dashboard-todo-returned', 'week-mine');
    expect(await check(teacher1, 'dashboard-total-excellent', 'dashboard-total-excellent', 'week-excellent')).toBe(1);
    await check(teacher3, 'dashboard-total-excellent', 'dashboard-total-excellent', 'week-excellent');
    // The reviewer's pending reviews open the review queue.
    expect(await check(reviewer, 'dashboard-pending', 'dashboard-open-queue', 'week-trial')).toBeGreaterThan(0);
    await check(reviewer, 'dashboard-todo-reviews', 'dashboard-todo-reviews', 'week-trial');
  });

  it('the templates page writes a template', async () => {
    await teacher1.goto('/week/template/index');
    await teacher1.getByTestId('week-templates').waitFor();
    await teacher1.getByTestId('template-new').click();
    await teacher1.getByTestId('template-name').fill('秋天主题周');
    await teacher1.getByTestId('template-theme').fill('秋天来了');
    await teacher1.getByTestId('template-weeklyGoals').fill('认识秋天的树叶');
    await shot(teacher1, 'week-template-new');
    await teacher1.getByTestId('template-save-submit').click();
    await expect.poll(() => teacher1.getByTestId('list-row').filter({ hasText: '秋天主题周' }).count()).toBe(1);
  });

  it('the shared lists in English: roles by name, the excellent plan in the favourites', async () => {
    await teacher3.evaluate(() => localStorage.setItem('sprout-language', 'en'));
    await teacher3.goto('/week/favorite/index');
    await teacher3.getByTestId('week-favorite').waitFor();
    await expect.poll(() => teacher3.getByText('My favourites').count()).toBeGreaterThan(0);
    await expect.poll(() => teacher3.getByTestId('list-row').count()).toBe(1);
    await shot(teacher3, 'week-favorite-en');
    await teacher3.goto('/week/excellent/index');
    const row = teacher3.getByTestId('list-row').first();
    await expect.poll(() => row.getByTestId('list-collect').getAttribute('aria-label')).toBe('Remove from favourites');
    await shot(teacher3, 'week-excellent-en');
    expect(errors.flat()).toEqual([]);
  });

  it('the lists on a phone (390 × 844)', async () => {
    const phone = await (await e2e.context({ viewport: { width: 390, height: 844 } })).newPage();
    await signIn(phone, user('teacher3'));
    for (const [path, name] of [
      ['/week/excellent/index', 'week-excellent-phone'],
      ['/week/favorite/index', 'week-favorite-phone'],
      ['/week/mine/index', 'week-mine-phone'],
    ] as const) {
      await phone.goto(path);
      // A phone lists cards, each with its status and actions (no table wider than the screen).
      await phone.getByTestId('list-cards').getByTestId('list-row').first().waitFor();
      await phone.getByTestId('list-row-actions').first().waitFor();
      await shot(phone, name);
    }
    await phone.evaluate(() => localStorage.setItem('sprout-language', 'en'));
    await phone.goto('/week/excellent/index');
    await phone.getByTestId('list-cards').getByTestId('list-row').first().waitFor();
    await shot(phone, 'week-excellent-phone-en');
  });
});
