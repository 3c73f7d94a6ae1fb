/// <reference lib="dom" />
// Browser globals appear inside page.evaluate callbacks, which run in the page.
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '../../services/core/src/permissions/demo';
import { type E2E, SCREENSHOTS, shot, signIn, startE2E, watchErrors } from './support/app';
import { setLanguage } from './support/crud';

const TENANT = '100001';
const user = (account: string) => {
  const found = DEMO_ACCOUNTS.find((a) => a.account === account);
  if (!found) throw new Error(`no demo account ${account}`);
  return { tenant: TENANT, account, password: DEMO_PASSWORD, realName: found.realName };
};
const ONE = user('teacher1'); // 王芳, head teacher of 小一班
const TWO = user('teacher2'); // 刘洋, second teacher of 小一班
const REVIEWER = user('reviewer');
const COMMENT = '请补充户外活动的安全提示';
const PLAN = '科学：影子游戏';

const status = (page: Page) => page.getByTestId('save-status').getAttribute('data-kind');
const theme = (page: Page) => page.getByTestId('week-theme');
const cell = (page: Page, day: number, slot: string) => page.getByTestId(`day-cell-${day}-${slot}`);
const bellCount = async (page: Page) => Number(await page.getByTestId('inbox-bell').getAttribute('data-count'));
/** Screenshots go to the suite's folder and to the helper's (/work/shots/h2). */
const snap = async (page: Page, name: string) => {
  await shot(page, name);
  try {
    copyFileSync(join(SCREENSHOTS, `${name}.png`), `/work/shots/h2/${name}.png`);
  } catch {
    /* the helper's folder is optional */
  }
};

/**
 * Issue 23, items 3 and 6 in the browser: 王芳 and 刘洋 co-write a week of 小一班 live, 刘洋 adds
 * a lesson plan, the week is submitted and the reviewer returns it. The returned editor shows
 * the reviewer's comment at the top, the top bar's messages count the return and opening it
 * lowers the count; the home page's 被退回待修改 opens the returned list; the week's history
 * names each field's author and lists the added lesson plan; once in English.
 */
describe('the review loop of a weekly plan: a return guides the fix, the history names its authors', () => {
  let e2e: E2E;
  let one: Page;
  let two: Page;
  let reviewer: Page;
  let errors: string[][];
  let weekId = '';

  async function api<T>(page: Page, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    const token = await page.evaluate(() => JSON.parse(localStorage.getItem('sprout-token') ?? 'null')?.content);
    const response = await fetch(`${e2e.server.url}/api${path}`, {
      method,
      headers: {
        Authorization: `Basic ${Buffer.from('saber:saber_secret').toString('base64')}`,
        'Blade-Auth': `bearer ${token}`,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const answer = (await response.json()) as { data: T; msg: string };
    expect(response.status, `${method} ${path}: ${answer.msg}`).toBe(200);
    return answer.data;
  }

  beforeAll(async () => {
    e2e = await startE2E();
    one = await (await e2e.context()).newPage();
    two = await (await e2e.context()).newPage();
    reviewer = await (await e2e.context()).newPage();
    errors = [watchErrors(one), watchErrors(two), watchErrors(reviewer)];
    await signIn(one, ONE);
    await signIn(two, TWO);
    await signIn(reviewer, REVIEWER);
    const page = await api<{ records: Array<{ id: string; className: string }> }>(
      one,
      'GET',
      '/week/week/list?current=1&size=100&status=draft',
    );
    weekId = page.records.find((r) => r.className === '小一班')?.id ?? '';
    expect(weekId).toMatch(/^\d+$/);
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it('two teachers co-write the week, 刘洋 adds a lesson plan, it is submitted and returned with a comment', async () => {
    for (const page of [one, two]) {
      await page.goto(`/week/week/?id=${weekId}`);
      await page.locator('[data-testid="week-editor"][data-collab="live"]').waitFor();
      await expect.poll(() => status(page), { timeout: 10_000 }).toBe('saved');
    }
    // Nothing was returned yet: no comment at the top.
    expect(await one.getByTestId('week-returned-notice').count()).toBe(0);
    await theme(one).click();
    await theme(one).press('End');
    await one.keyboard.type('·合写');
    await expect.poll(() => theme(two).inputValue()).toMatch(/·合写$/);
    await cell(two, 1, 'regional').click();
    await two.keyboard.press('Control+End');
    await two.keyboard.type('建构区：搭小桥');
    await expect.poll(() => cell(one, 1, 'regional').inputValue()).toContain('建构区：搭小桥');
    for (const page of [one, two]) await expect.poll(() => status(page), { timeout: 10_000 }).toBe('saved');

    const week = await api<{ content: { startDate: string } }>(two, 'GET', `/week/week/alllistForId?id=${weekId}`);
    await api(two, 'POST', '/week_plan/weekplan/add', {
      content: { weekId, title: PLAN, date: week.content.startDate, domain: 1, activityType: 1, process: '讲解' },
    });
    await api(one, 'POST', '/week/week/submit', { id: weekId });
    await api(reviewer, 'POST', '/week/week/review', { id: weekId, action: 'return', comment: COMMENT });
  });

  it('the returned editor shows the comment; the messages count the return; opening it lowers the count', async () => {
    await one.goto(`/week/week/?id=${weekId}`);
    const notice = one.getByTestId('week-returned-notice');
    await notice.waitFor();
    expect(await notice.textContent()).toContain('这份备课已被退回');
    expect(await one.getByTestId('week-returned-comment').textContent()).toContain(COMMENT);
    expect(await notice.textContent()).toContain(REVIEWER.realName);
    await expect.poll(() => bellCount(one)).toBeGreaterThan(0);
    const before = await bellCount(one);
    await snap(one, 'review-loop-returned-editor-zh');

    // The co-author hears of it too; the reviewer who returned it does not.
    await two.goto('/wel/index');
    await expect.poll(() => bellCount(two)).toBeGreaterThan(0);
    await reviewer.goto('/wel/index');
    await reviewer.getByTestId('inbox-bell').waitFor();
    expect(await bellCount(reviewer)).toBe(0);

    await one.getByTestId('inbox-bell').click();
    const item = one
      .getByTestId('inbox-bell-list')
      .locator('[data-testid="inbox-item"][data-event="returned"]')
      .first();
    await item.waitFor();
    expect(await item.getAttribute('data-read')).toBe('false');
    expect(await item.textContent()).toContain(COMMENT);
    expect(await item.textContent()).toContain(`${REVIEWER.realName} 退回了`);
    await snap(one, 'review-loop-messages-zh');
    await item.click();
    await expect.poll(() => bellCount(one)).toBe(before - 1);
    await one.waitForURL(`**/week/week/?id=${weekId}`);
  });

  it('the home page’s 被退回待修改 opens my list filtered to the returned weeks', async () => {
    await one.goto('/wel/index');
    const todo = one.getByTestId('dashboard-todo-returned');
    await todo.waitFor();
    expect(Number(await todo.textContent())).toBeGreaterThan(0);
    await todo.click();
    await one.waitForURL('**/week/mine/index?status=returned');
    const rows = one.getByTestId('list-row');
    await expect.poll(() => rows.count()).toBeGreaterThan(0);
    for (const text of await rows.allTextContents()) expect(text).toContain('已退回');
    expect(await one.locator(`[data-testid="list-row"][data-id="${weekId}"]`).count()).toBe(1);
  });

  it('the history names each field’s author and lists the lesson plan 刘洋 added', async () => {
    await one.goto(`/weekdetails/details?id=${weekId}`);
    const history = one.getByTestId('history');
    await history.waitFor();
    await expect.poll(() => history.getByTestId('history-what').allTextContents()).toContain(`添加了教案「${PLAN}」`);
    const added = history.locator('[data-testid="history-entry"][data-type="ChildAdded"]').filter({ hasText: PLAN });
    expect(await added.getByTestId('history-actor').textContent()).toBe(TWO.realName);
    const credited = await history.getByTestId('history-change-authors').allTextContents();
    expect(credited.some((c) => c.includes(ONE.realName))).toBe(true);
    expect(credited.some((c) => c.includes(TWO.realName))).toBe(true);
    const submitted = history.locator('[data-testid="history-entry"][data-type="RecordSubmitted"]').first();
    const names = await submitted.getByTestId('history-actor').textContent();
    expect(names).toContain(ONE.realName);
    expect(names).toContain(TWO.realName);
    await history.scrollIntoViewIfNeeded();
    await snap(one, 'review-loop-history-zh');
  });

  it('in English: the returned editor, the messages and the history', async () => {
    await setLanguage(one, 'en');
    await one.goto(`/week/week/?id=${weekId}`);
    const notice = one.getByTestId('week-returned-notice');
    await notice.waitFor();
    await expect.poll(() => notice.textContent()).toContain('This plan was returned');
    expect(await one.getByTestId('week-returned-comment').textContent()).toContain(COMMENT);
    await snap(one, 'review-loop-returned-editor-en');
    await one.getByTestId('inbox-bell').click();
    const item = one
      .getByTestId('inbox-bell-list')
      .locator('[data-testid="inbox-item"][data-event="returned"]')
      .first();
    await expect.poll(() => item.textContent()).toContain(`${REVIEWER.realName} returned`);
    await snap(one, 'review-loop-messages-en');
    await one.keyboard.press('Escape');
    await one.goto(`/weekdetails/details?id=${weekId}`);
    const history = one.getByTestId('history');
    await expect
      .poll(() => history.getByTestId('history-what').allTextContents())
      .toContain(`added the lesson plan “${PLAN}”`);
    await history.scrollIntoViewIfNeeded();
    await snap(one, 'review-loop-history-en');
    await setLanguage(one, 'zh');
  });

  it('on a phone (390×844): the week day by day under sticky segment names, lists with status and actions, toasts under the top bar', async () => {
    const phone = await (await e2e.context({ viewport: { width: 390, height: 844 } })).newPage();
    errors.push(watchErrors(phone));
    await signIn(phone, ONE);
    for (const lang of ['zh', 'en'] as const) {
      if (lang === 'en') await setLanguage(phone, 'en');
      // My weeks: a card per week, its status and its actions inside the screen.
      await phone.goto('/week/mine/index?status=returned');
      const card = phone.locator(`[data-testid="list-row"][data-id="${weekId}"]`);
      await card.waitFor();
      const badge = card.getByTestId('list-row-status');
      expect(await badge.textContent()).toBe(lang === 'zh' ? '已退回' : 'Returned');
      const box = await badge.boundingBox();
      expect(box && box.x + box.width).toBeLessThanOrEqual(390);
      expect(await card.getByTestId('list-row-actions').locator('button, a').count()).toBeGreaterThan(0);
      await snap(phone, `review-loop-phone-list-${lang}`);

      // The week: one day at a time, each segment under its name.
      await phone.goto(`/week/week/?id=${weekId}`);
      const view = phone.getByTestId('day-view');
      await view.waitFor();
      const labels = view.getByTestId('day-view-slot-label');
      await expect
        .poll(() => labels.allTextContents())
        .toEqual(
          lang === 'zh'
            ? ['晨间活动', '集体教学', '区域活动', '户外活动', '生活活动', '下午活动', '备注']
            : expect.arrayContaining(['Notes']),
        );
      expect(await labels.first().evaluate((el) => getComputedStyle(el).position)).toBe('sticky');
      expect(await phone.getByTestId('day-grid').count()).toBe(0);
      // Tuesday: the text 刘洋 typed into its 区域活动.
      await view
        .getByTestId('day-view-days')
        .getByText(lang === 'zh' ? '周二' : 'Tue', { exact: false })
        .click();
      await expect.poll(() => view.getAttribute('data-day')).toBe('1');
      await expect.poll(() => cell(phone, 1, 'regional').inputValue()).toContain('建构区：搭小桥');
      // Scrolled so that 户外活动's box starts under the day bar: its name stays in view, right under the bar.
      await phone.evaluate(() => {
        const section = document.querySelectorAll('[data-testid="day-view-slot-label"]')[3]?.parentElement;
        if (section) window.scrollBy(0, section.getBoundingClientRect().top - 80);
      });
      const bar = await view.getByTestId('day-view-days').boundingBox();
      const stuck = await labels.nth(3).boundingBox();
      const barBottom = (bar?.y ?? 0) + (bar?.height ?? 0);
      expect(bar?.y ?? 0).toBeGreaterThanOrEqual(56);
      expect(stuck?.y ?? 0).toBeGreaterThanOrEqual(barBottom - 1);
      expect(stuck?.y ?? 0).toBeLessThanOrEqual(barBottom + 14);
      await snap(phone, `review-loop-phone-week-scrolled-${lang}`);
      await phone.evaluate(() => window.scrollTo(0, 0));
      await view.scrollIntoViewIfNeeded();
      await snap(phone, `review-loop-phone-week-${lang}`);
    }
    // Toasts start under the top bar (56 px), never over it.
    const toasts = phone.locator('.mantine-Notifications-root[data-position="top-center"]');
    await expect.poll(() => toasts.count()).toBe(1);
    expect(await toasts.evaluate((el) => Number.parseFloat(getComputedStyle(el).top))).toBeGreaterThanOrEqual(56);
    await setLanguage(phone, 'zh');
  });

  it('raised no page errors', () => {
    expect(errors.flat()).toEqual([]);
  });
});
