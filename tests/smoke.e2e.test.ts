import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './helpers/browser';
import { type RunningServer, runSprout, startSprout } from './helpers/server';

/** The embedded default, as `npm start` runs it: no DATABASE_URL, no REDIS_URL. */
describe('embedded mode smoke', () => {
  let server: RunningServer;
  const dataDir = mkdtempSync(join(tmpdir(), 'sprout-smoke-'));

  beforeAll(async () => {
    server = await startSprout({}, dataDir);
  });
  afterAll(async () => {
    await server?.stop('SIGKILL');
  });

  it('answers /api/health and /api/ready on PGlite and the in-process queue', async () => {
    const health = await (await fetch(`${server.url}/api/health`)).json();
    expect(health).toEqual({ code: 200, success: true, data: { status: 'UP' }, msg: '操作成功' });
    const ready = (await (await fetch(`${server.url}/api/ready`)).json()) as { data: unknown };
    expect(ready.data).toMatchObject({ checks: { database: 'UP', queue: 'UP' }, mode: 'embedded' });
    expect(server.output()).toContain('embedded mode');
  });

  it('serves the web app at / with the product title, and index.html for app routes', async () => {
    const html = await (await fetch(`${server.url}/`)).text();
    expect(html).toMatch(/<title>萌芽教学管理平台<\/title>/);
    const deep = await fetch(`${server.url}/week/week/`, { headers: { accept: 'text/html' } });
    expect(deep.status).toBe(200);
    expect(await deep.text()).toMatch(/<title>萌芽教学管理平台<\/title>/);
    const api404 = await fetch(`${server.url}/api/nope`);
    expect(api404.status).toBe(404);
    expect(((await api404.json()) as { success: boolean }).success).toBe(false);
  });

  it('loads / in Chromium', async () => {
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(`${server.url}/`, { waitUntil: 'networkidle' });
      expect(await page.title()).toBe('萌芽教学管理平台');
      // The sign-in page is a lazy chunk: network idle can come before it has drawn on a busy machine.
      await page.getByTestId('login-submit').waitFor({ state: 'visible', timeout: 30_000 });
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it('stops cleanly on SIGTERM and keeps its data on the next start', async () => {
    expect(await server.stop('SIGTERM')).toBe(0);
    expect(server.output()).toContain('stopped');
    server = await startSprout({}, dataDir);
    // The second start finds everything migrated and seeded already.
    expect(server.output()).not.toContain('seeded:');
    expect(server.output()).not.toContain('migrations applied');
    const health = await fetch(`${server.url}/api/health`);
    expect(health.status).toBe(200);
  });

  it('refuses to start with PORT=abc, naming the problem, exit code ≠ 0', async () => {
    const { code, output } = await runSprout({ PORT: 'abc', DATA_DIR: mkdtempSync(join(tmpdir(), 'sprout-bad-')) });
    expect(code).not.toBe(0);
    expect(output).toContain('PORT="abc"');
    expect(output).toMatch(/Sprout cannot start/);
  });
});
