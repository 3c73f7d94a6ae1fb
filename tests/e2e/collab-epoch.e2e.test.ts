/// <reference lib="dom" />
// Browser globals appear inside page.evaluate callbacks, which run in the page.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { Browser, Page, WebSocketRoute } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '../../services/core/src/permissions/demo';
import { ROOT, type RunningServer, startSprout } from '../helpers/server';
import { SCREENSHOTS, signIn, startE2E, watchErrors } from './support/app';

const found = DEMO_ACCOUNTS.find((a) => a.account === 'teacher1');
const ONE = { tenant: '100001', account: 'teacher1', password: DEMO_PASSWORD, realName: found?.realName ?? '' };

const status = (page: Page) => page.getByTestId('save-status').getAttribute('data-kind');
const theme = (page: Page) => page.getByTestId('week-theme');
const snap = (page: Page, name: string) => page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });

async function inEnglish(page: Page) {
  await page.getByTestId('language-menu').click();
  await page.getByTestId('language-en').click();
  await page.getByTestId('language-en').waitFor({ state: 'hidden' });
}

/** `npm run collab:new-epoch` against the stopped server's data (what an operator runs after a restore). */
function renewEpochs(dataDir: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
    delete env.DATABASE_URL;
    Object.assign(env, { DATA_DIR: dataDir, LOG_LEVEL: 'warn' });
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/collab-new-epoch.ts'], { cwd: ROOT, env });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      out += d;
    });
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`collab:new-epoch failed:\n${out}`))));
  });
}

/**
 * Issue 14 in the browser, on one embedded server restarted twice on the same address:
 * a teacher's offline edits kept on her device are dropped — never merged — once the server's
 * document was restored (a new identity epoch), and she is told; and with the collab service
 * not served (SERVICES=api,worker) the editor says so calmly and saves over HTTP.
 */
describe('live co-editing: a restored document, and no collab service', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  let weekId = '';
  let cut = false;
  const sockets: WebSocketRoute[] = [];

  async function api<T>(path: string): Promise<T> {
    const token = await page.evaluate(() => JSON.parse(localStorage.getItem('sprout-token') ?? 'null')?.content);
    const response = await fetch(`${server.url}/api${path}`, {
      headers: {
        Authorization: `Basic ${Buffer.from('saber:saber_secret').toString('base64')}`,
        'Blade-Auth': `bearer ${token}`,
      },
    });
    return ((await response.json()) as { data: T }).data;
  }

  /** The week's theme as the API reads it (the record, with or without a `record` wrapper). */
  async function storedTheme() {
    type Week = { content: { theme: string } };
    const raw = await api<Week & { record?: Week }>(`/week/week/alllistForId?id=${weekId}`);
    return (raw.record ?? raw).content.theme;
  }

  async function restart(env: Record<string, string> = {}) {
    const { port, dataDir } = server;
    await server.stop('SIGTERM');
    const renewed = env.RENEW ? await renewEpochs(dataDir) : '';
    const { RENEW: _, ...rest } = env;
    server = await startSprout({ ...rest, PORT: String(port) }, dataDir);
    return renewed;
  }

  beforeAll(async () => {
    // Embedded: the restarts below start the same data directory again (and renew its epochs).
    const e2e = await startE2E({}, { embedded: true });
    server = e2e.server;
    browser = e2e.browser;
    page = await (await e2e.context()).newPage();
    errors = watchErrors(page);
    await page.routeWebSocket(/\/api\/collab\//, (ws) => {
      if (cut) return ws.close({ code: 1006, reason: 'offline' });
      ws.connectToServer();
      sockets.push(ws);
    });
    await signIn(page, ONE);
    const list = await api<{ records: Array<{ id: string; className: string }> }>(
      '/week/week/list?current=1&size=100&status=draft',
    );
    weekId = list.records.find((r) => r.className === '小一班')?.id ?? '';
    expect(weekId).toMatch(/^\d+$/);
  });
  afterAll(async () => {
    await browser?.close().catch(() => undefined);
    await server?.stop('SIGKILL');
  });

  it('drops the device’s copy of a restored document instead of merging it, and says unsent edits were lost', async () => {
    await page.goto(`/week/week/?id=${weekId}`);
    await page.locator('[data-testid="week-editor"][data-collab="live"]').waitFor();
    await expect.poll(() => status(page), { timeout: 15_000 }).toBe('saved');
    const before = await theme(page).inputValue();

    // Offline: the edit is kept on this device only.
    cut = true;
    for (const ws of sockets.splice(0)) await ws.close({ code: 1006, reason: 'offline' });
    await expect.poll(() => status(page), { timeout: 10_000 }).toBe('offline');
    await theme(page).click();
    await theme(page).press('End');
    await page.keyboard.type('（离线时写的）');
    await expect.poll(() => theme(page).inputValue()).toBe(`${before}（离线时写的）`);

    // The server's data is restored: the operator gives every document a new epoch.
    expect(await restart({ RENEW: '1' })).toMatch(/[1-9]\d* documents? got a new epoch/);
    cut = false;

    await page.getByTestId('collab-replaced').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('collab-replaced').getAttribute('data-dropped')).toBe('true');
    await page.locator('[data-testid="week-editor"][data-collab="live"]').waitFor();
    await expect.poll(() => status(page), { timeout: 15_000 }).toBe('saved');
    expect(await theme(page).inputValue()).toBe(before);
    expect(await storedTheme()).toBe(before);
    await snap(page, 'collab-replaced-zh');
    await inEnglish(page);
    await expect
      .poll(() => page.getByTestId('collab-replaced').innerText())
      .toContain('This plan was reopened from the server');
    await snap(page, 'collab-replaced-en');
    expect(errors).toEqual([]);
  });

  it('without the collab service (SERVICES=api,worker) says so once and saves over HTTP', async () => {
    await restart({ SERVICES: 'api,worker' });
    // A browser holding a copy of the week (the same context, a page without the socket route).
    const withCopy = await page.context().newPage();
    await withCopy.goto(`/week/week/?id=${weekId}`);
    await withCopy.getByTestId('collab-unavailable').waitFor({ timeout: 30_000 });
    expect(await withCopy.getByTestId('week-editor').getAttribute('data-collab')).toBeNull();
    await withCopy.close();

    // A browser with no copy of the week: the editor stops trying at once.
    const fresh = await (await browser.newContext({ baseURL: server.url, locale: 'zh-CN' })).newPage();
    const freshErrors = watchErrors(fresh);
    const previous = page;
    page = fresh;
    await signIn(fresh, ONE);
    await fresh.goto(`/week/week/?id=${weekId}`);
    await fresh.getByTestId('collab-unavailable').waitFor({ timeout: 30_000 });
    expect(await fresh.getByTestId('collab-unavailable').innerText()).toContain('实时协同不可用，修改会直接保存');
    expect(await fresh.getByTestId('week-editor').getAttribute('data-collab')).toBeNull();

    await theme(fresh).click();
    await theme(fresh).press('End');
    await fresh.keyboard.type('·直接保存');
    await expect.poll(() => status(fresh), { timeout: 15_000 }).toBe('saved');
    expect(await storedTheme()).toMatch(/·直接保存$/);
    await snap(fresh, 'collab-unavailable-zh');
    await inEnglish(fresh);
    await expect
      .poll(() => fresh.getByTestId('collab-unavailable').innerText())
      .toContain('Live co-editing is unavailable; your changes are saved directly');
    await snap(fresh, 'collab-unavailable-en');
    expect(freshErrors).toEqual([]);
    page = previous;
  });
});
