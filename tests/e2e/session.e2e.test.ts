/// <reference lib="dom" />
// Browser globals appear inside page.evaluate callbacks, which run in the page.
import type { Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2E, signIn, startE2E, waitForMenu } from './support/app';

const isRefresh = (r: Request) =>
  r.method() === 'POST' &&
  r.url().includes('/oauth/token') &&
  (r.postData() ?? '').includes('grant_type=refresh_token');

/** The refresh token a refresh request spends (form body or query string). */
const spentToken = (r: Request) =>
  new URLSearchParams(r.postData() ?? '').get('refresh_token') ?? new URL(r.url()).searchParams.get('refresh_token');

/** The session's timers, with their limits shortened by the web app's runtime configuration. */
describe('web shell: token refresh and inactivity', () => {
  let e2e: E2E;

  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it('refreshes the token once when it reaches the token time, with two tabs open', async () => {
    const context = await e2e.context({ config: { tokenTime: 4, tokenCheckIntervalMs: 300 } });
    const refreshes: Request[] = [];
    let inFlight = 0;
    context.on('request', (r) => {
      if (!isRefresh(r)) return;
      refreshes.push(r);
      inFlight += 1;
    });
    const settle = (r: Request) => {
      if (isRefresh(r)) inFlight -= 1;
    };
    context.on('requestfinished', settle);
    context.on('requestfailed', settle);
    // A page left while its refresh is in flight never stores the rotated token (the server takes
    // the just-spent one once more within a grace: the next test); here every refresh must spend
    // a distinct token, so the pages are left between refreshes.
    const between = () => expect.poll(() => inFlight, { timeout: 15_000, interval: 20 }).toBe(0);
    // A slow refresh answer: without the cross-tab lock the other tab's checks during
    // these 1.5 s would refresh too (and the server would revoke the session for reuse).
    await context.route('**/api/blade-auth/oauth/token**', async (route) => {
      if (isRefresh(route.request())) await new Promise((r) => setTimeout(r, 1500));
      await route.continue();
    });
    const first = await context.newPage();
    await signIn(first);
    const tokenBefore = await first.evaluate(() => localStorage.getItem('sprout-token'));
    const second = await context.newPage();
    await second.goto('/wel/dashboard');
    await second.getByTestId('dashboard-page').waitFor();

    await expect.poll(() => refreshes.length, { timeout: 15_000, interval: 100 }).toBeGreaterThanOrEqual(1);
    // Both tabs checked every 300 ms since; a second refresh of the same token would have happened by now.
    // (A later refresh of the new token, once it too reaches the token time on a slow machine, is fine.)
    await first.waitForTimeout(2500);
    const spent = refreshes.map(spentToken);
    expect(spent.every(Boolean)).toBe(true);
    expect(new Set(spent).size).toBe(spent.length);
    const response = await refreshes[0]?.response();
    expect(response?.status()).toBe(200);

    // Both tabs carry on with the new token: the rotated refresh token was used once, the session lives.
    const tokenAfter = await first.evaluate(() => localStorage.getItem('sprout-token'));
    expect(tokenAfter).not.toBe(tokenBefore);
    await between();
    await second.reload();
    await waitForMenu(second);
    expect(new URL(second.url()).pathname).toBe('/wel/dashboard');
    await between();
    await first.goto('/wel/index');
    await waitForMenu(first);
    expect(new URL(first.url()).pathname).toBe('/wel/index');
    await context.close();
  });

  it('stays signed in when a page is reloaded while its refresh is in flight', async () => {
    const context = await e2e.context({ config: { tokenTime: 4, tokenCheckIntervalMs: 300 } });
    const page = await context.newPage();
    let rotated!: () => void;
    const reachedServer = new Promise<void>((r) => {
      rotated = r;
    });
    let held = false;
    await context.route('**/api/blade-auth/oauth/token**', async (route) => {
      if (!isRefresh(route.request()) || held) return route.continue();
      held = true;
      // The server rotates the refresh token, but the answer never reaches the page: it is
      // reloaded meanwhile (the request is dropped with the page).
      await route.fetch();
      rotated();
    });
    const answers: { spent: string | null; status: number }[] = [];
    context.on('requestfinished', async (r) => {
      if (isRefresh(r)) answers.push({ spent: spentToken(r), status: (await r.response())?.status() ?? 0 });
    });
    await signIn(page);
    const stale = await page.evaluate(() => localStorage.getItem('sprout-refresh-token'));
    await reachedServer;
    await page.reload();
    await waitForMenu(page);
    // The reloaded page presents the refresh token the server has just spent: taken once more.
    await expect
      .poll(() => answers.find((a) => a.spent && stale?.includes(a.spent))?.status, { timeout: 15_000 })
      .toBe(200);
    await page.goto('/wel/index');
    await waitForMenu(page);
    expect(new URL(page.url()).pathname).toBe('/wel/index');
    await context.close();
  });

  it('asks the user to save and log in again after too long between clicks', async () => {
    // Long enough that the first click after signing in comes in time even on a busy machine
    // (4 s was not, once, with the whole suite on two cores).
    const context = await e2e.context({ config: { inactivityLimitMs: 10_000 } });
    const page = await context.newPage();
    await signIn(page);
    await page.mouse.click(700, 820);
    await expect.poll(() => page.getByTestId('inactivity-message').count()).toBe(0);
    await page.waitForTimeout(10_300);
    await page.mouse.click(700, 820);
    await page.getByTestId('inactivity-message').waitFor();
    await expect.poll(() => page.getByTestId('inactivity-message').textContent()).toContain('保存');
    await context.close();
  });
});
