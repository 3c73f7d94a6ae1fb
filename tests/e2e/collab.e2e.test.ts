/// <reference lib="dom" />
// Browser globals appear inside page.evaluate callbacks, which run in the page.
import { join } from 'node:path';
import type { Page, WebSocketRoute } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '../../services/core/src/permissions/demo';
import { type E2E, SCREENSHOTS, signIn, startE2E, watchErrors } from './support/app';

const TENANT = '100001';
const user = (account: string) => {
  const found = DEMO_ACCOUNTS.find((a) => a.account === account);
  if (!found) throw new Error(`no demo account ${account}`);
  return { tenant: TENANT, account, password: DEMO_PASSWORD, realName: found.realName };
};
const ONE = user('teacher1'); // 王芳, head teacher of 小一班
const TWO = user('teacher2'); // 刘洋, second teacher of 小一班

/** What the acceptance allows between typing in one browser and seeing it in the other. */
const LIVE = { timeout: 1000, interval: 50 };

/** A screenshot as the page is (focus kept: carets and field marks show only while someone is in a field). */
const snap = (page: Page, name: string) => page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });

const status = (page: Page) => page.getByTestId('save-status').getAttribute('data-kind');
const theme = (page: Page) => page.getByTestId('week-theme');
const cell = (page: Page, day: number, slot: string) => page.getByTestId(`day-cell-${day}-${slot}`);
const rich = (page: Page, field: string) => page.locator(`[data-testid="week-${field}"] .ProseMirror`);
/** The name tag others' presence puts on a plain field (presence.ts). */
const fieldMark = (page: Page, testId: string) =>
  page.locator(`[data-collab-names]:has(> [data-testid="${testId}"])`).getAttribute('data-collab-names');
/** Another person's caret in a rich field, by name. */
const caret = (page: Page, field: string, name: string) =>
  page.locator(`[data-testid="week-${field}"] .collab-caret[data-user-name="${name}"]`);

/**
 * Issue 8 in the browser: two teachers of 小一班 (王芳 and 刘洋, two browser contexts) open the
 * class's draft week; each sees the other's text and named cursor within a second, in a plain
 * field and in a rich field; offline edits are kept on the device (IndexedDB), survive a
 * reload and merge when the connection is back; submitting creates one RecordSubmitted naming
 * both, and the other editor turns read-only.
 */
describe('live co-editing of a weekly plan by two teachers', () => {
  let e2e: E2E;
  let one: Page;
  let two: Page;
  let errors: string[][];
  let weekId = '';
  /** Teacher two's live-editing sockets go through here: `cut` takes her offline. */
  let cut = false;
  const sockets: WebSocketRoute[] = [];

  async function api<T>(page: Page, path: string): Promise<T> {
    const token = await page.evaluate(() => JSON.parse(localStorage.getItem('sprout-token') ?? 'null')?.content);
    const response = await fetch(`${e2e.server.url}/api${path}`, {
      headers: {
        Authorization: `Basic ${Buffer.from('saber:saber_secret').toString('base64')}`,
        'Blade-Auth': `bearer ${token}`,
      },
    });
    const body = (await response.json()) as { data: T };
    return body.data;
  }

  beforeAll(async () => {
    e2e = await startE2E();
    one = await (await e2e.context()).newPage();
    two = await (await e2e.context()).newPage();
    errors = [watchErrors(one), watchErrors(two)];
    await two.routeWebSocket(/\/api\/collab\//, (ws) => {
      if (cut) return ws.close({ code: 1006, reason: 'offline' });
      ws.connectToServer();
      sockets.push(ws);
    });
    await signIn(one, ONE);
    await signIn(two, TWO);
    const page = await api<{ records: Array<{ id: string; className: string }> }>(
      one,
      '/week/week/list?current=1&size=100&status=draft',
    );
    weekId = page.records.find((r) => r.className === '小一班')?.id ?? '';
    expect(weekId).toMatch(/^\d+$/);
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it('opens the same draft live for both, each seeing who is here', async () => {
    for (const page of [one, two]) {
      await page.goto(`/week/week/?id=${weekId}`);
      await page.locator('[data-testid="week-editor"][data-collab="live"]').waitFor();
      await expect.poll(() => status(page), { timeout: 10_000 }).toBe('saved');
    }
    for (const page of [one, two]) {
      await expect
        .poll(() => page.getByTestId('collab-peer').evaluateAll((els) => els.map((e) => e.getAttribute('data-name'))))
        .toEqual(page === one ? [ONE.realName, TWO.realName] : [TWO.realName, ONE.realName]);
    }
    // Live: no plain save button, and the class cannot change (the record's class is fixed).
    await expect.poll(() => one.getByTestId('week-save-now').count()).toBe(0);
    expect(await one.getByTestId('week-class').isDisabled()).toBe(true);
  });

  it('shows each one’s typing and cursor in a plain field to the other within 1 s', async () => {
    await theme(one).click();
    await theme(one).press('End');
    await one.keyboard.type('·落叶');
    await expect.poll(() => theme(two).inputValue(), LIVE).toMatch(/·落叶$/);
    await expect.poll(() => fieldMark(two, 'week-theme'), LIVE).toBe(ONE.realName);

    await cell(two, 1, 'regional').click();
    await two.keyboard.press('Control+End');
    await two.keyboard.type('建构区：搭小桥');
    await expect.poll(() => cell(one, 1, 'regional').inputValue(), LIVE).toContain('建构区：搭小桥');
    await expect.poll(() => fieldMark(one, 'day-cell-1-regional'), LIVE).toBe(TWO.realName);
    // Both are in a field: each sees the other's mark, and the avatar says where.
    await expect.poll(() => fieldMark(two, 'week-theme'), LIVE).toBe(ONE.realName);
    await expect
      .poll(() => one.locator(`[data-testid="collab-peer"][data-name="${TWO.realName}"]`).getAttribute('data-field'))
      .toBe('days.1.regional');

    // Typing into the same text at once: both keep their words.
    await cell(one, 1, 'regional').click();
    await one.keyboard.press('Control+Home');
    await Promise.all([one.keyboard.type('【户外】'), two.keyboard.type('，小组合作')]);
    for (const page of [one, two]) {
      await expect
        .poll(() => cell(page, 1, 'regional').inputValue(), LIVE)
        .toMatch(/^【户外】.*建构区：搭小桥，小组合作/s);
    }
    await expect.poll(() => fieldMark(one, 'day-cell-1-regional'), LIVE).toBe(TWO.realName);
    await cell(one, 0, 'morning').scrollIntoViewIfNeeded();
    await snap(one, 'collab-teacher1-grid');
  });

  it('shows each one’s typing and named caret in a rich field to the other within 1 s', async () => {
    await rich(one, 'weeklyGoals').click();
    await one.keyboard.press('Control+End');
    await one.keyboard.type('观察树叶的颜色和形状');
    await expect.poll(() => rich(two, 'weeklyGoals').innerText(), LIVE).toContain('观察树叶的颜色和形状');
    await expect.poll(() => caret(two, 'weeklyGoals', ONE.realName).count(), LIVE).toBe(1);

    await rich(two, 'weeklyGoals').click();
    await two.keyboard.press('Control+Home');
    await two.keyboard.type('【共同目标】');
    await expect.poll(() => rich(one, 'weeklyGoals').innerText(), LIVE).toMatch(/^【共同目标】/);
    await expect.poll(() => caret(one, 'weeklyGoals', TWO.realName).count(), LIVE).toBe(1);
    await expect.poll(() => caret(two, 'weeklyGoals', ONE.realName).count(), LIVE).toBe(1);

    await rich(two, 'environment').click();
    await two.keyboard.type('自然角：摆放落叶标本');
    await expect.poll(() => rich(one, 'environment').innerText(), LIVE).toContain('自然角：摆放落叶标本');
    await expect.poll(() => caret(one, 'environment', TWO.realName).count(), LIVE).toBe(1);
    // Her caret left the first field with her.
    await expect.poll(() => caret(one, 'weeklyGoals', TWO.realName).count(), LIVE).toBe(0);

    for (const page of [one, two]) await expect.poll(() => status(page), { timeout: 5000 }).toBe('saved');
    await snap(one, 'collab-teacher1');
    await snap(two, 'collab-teacher2');
  });

  it('keeps offline edits on the device, through a reload, and merges them when back online', async () => {
    cut = true;
    for (const ws of sockets.splice(0)) await ws.close({ code: 1006, reason: 'offline' });
    await expect.poll(() => status(two), { timeout: 10_000 }).toBe('offline');
    await expect.poll(() => two.getByTestId('save-status').textContent()).toContain('离线（修改已保存在本机）');

    await cell(two, 3, 'notes').click();
    await two.keyboard.type('周四带雨衣');
    await theme(one).click();
    await theme(one).press('End');
    await one.keyboard.type('（修订）');
    await two.waitForTimeout(300); // IndexedDB writes
    await snap(two, 'collab-teacher2-offline');

    // A reload while offline: the week opens from this device's copy, with what was typed.
    await two.reload();
    await two.locator('[data-testid="week-editor"][data-collab="live"]').waitFor();
    expect(await cell(two, 3, 'notes').inputValue()).toBe('周四带雨衣');
    expect(await theme(two).inputValue()).not.toContain('（修订）');
    await expect.poll(() => status(two), { timeout: 10_000 }).toBe('offline');

    cut = false; // the next attempt gets through
    await expect.poll(() => status(two), { timeout: 15_000 }).toBe('saved');
    await expect.poll(() => cell(one, 3, 'notes').inputValue(), LIVE).toBe('周四带雨衣');
    await expect.poll(() => theme(two).inputValue(), LIVE).toContain('（修订）');
  });

  it('submits once, naming both teachers; the other editor turns read-only', async () => {
    // A last word from each (both are authors since any revision saved while idle).
    await cell(two, 4, 'afternoon').click();
    await two.keyboard.type('分享会');
    await cell(one, 4, 'life').click();
    await one.keyboard.type('自己穿外套');
    for (const page of [one, two]) await expect.poll(() => status(page), { timeout: 5000 }).toBe('saved');

    await one.getByTestId('week-submit').click();
    await one
      .getByRole('dialog')
      .getByRole('button', { name: /确定|Confirm/ })
      .click();
    await one.waitForURL(`**/weekdetails/details?id=${weekId}`);
    await expect.poll(() => one.getByTestId('week-status').getAttribute('data-status')).toBe('trial');
    // The details page's timeline names whose edits the submission holds.
    const authors = one.locator(
      '[data-testid="history-entry"][data-type="RecordSubmitted"] [data-testid="history-authors"]',
    );
    await expect
      .poll(() => authors.textContent())
      .toMatch(new RegExp(`${ONE.realName}.*${TWO.realName}|${TWO.realName}.*${ONE.realName}`));
    await authors.scrollIntoViewIfNeeded();
    await snap(one, 'collab-details-timeline');

    await expect.poll(() => status(two), { timeout: 10_000 }).toBe('readOnly');
    await two.getByTestId('collab-read-only').waitFor();
    expect(await cell(two, 4, 'afternoon').isDisabled()).toBe(true);
    expect(await rich(two, 'weeklyGoals').getAttribute('contenteditable')).toBe('false');
    await snap(two, 'collab-teacher2-read-only');

    const history = await api<Array<{ type: string; authors?: Array<{ name: string }>; changes: unknown[] }>>(
      one,
      `/week/week/history?id=${weekId}`,
    );
    const submitted = history.filter((e) => e.type === 'RecordSubmitted');
    expect(submitted).toHaveLength(1);
    expect(submitted[0]?.authors?.map((a) => a.name)).toEqual(expect.arrayContaining([ONE.realName, TWO.realName]));
    const detail = await api<{ content: { theme: string; days: Array<Record<string, string>> } }>(
      one,
      `/week/week/alllistForId?id=${weekId}`,
    );
    expect(detail.content.theme).toContain('·落叶（修订）');
    expect(detail.content.days[3]?.notes).toBe('周四带雨衣');
    expect(detail.content.days[4]?.afternoon).toContain('分享会');
    expect(errors).toEqual([[], []]);
  });
});
