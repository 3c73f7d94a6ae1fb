/// <reference lib="dom" />
// Browser globals appear inside page.evaluate callbacks, which run in the page.
import { cpSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { inject } from 'vitest';
import { launchChromium } from '../../helpers/browser';
import { cloneSeeded } from '../../helpers/seeded';
import { ROOT, type RunningServer, startSprout } from '../../helpers/server';
import { installMenuFixtures, type MenuSource, resolveMenuSource } from './menuFixtures';

export const SCREENSHOTS = join(ROOT, 'tests/e2e/screenshots');

export const ADMIN = { tenant: '000000', account: 'admin', password: 'admin' } as const;

/** One server and one browser per test file (spec: keep the e2e set fast on 2 cores). */
export interface E2E {
  server: RunningServer;
  browser: Browser;
  menus: MenuSource;
  /** A fresh context (own storage) with the menu fixtures when needed and optional web-app configuration. */
  context(options?: {
    config?: Record<string, unknown>;
    viewport?: { width: number; height: number };
  }): Promise<BrowserContext>;
  close(): Promise<void>;
}

/**
 * A copy of the run's seeded data directory (tests/setup/e2e-global.ts) for a server on the
 * default settings; a server on other settings (`env`) starts from an empty one.
 */
function seededCopy(env: Record<string, string>): string | undefined {
  const seeded = inject('seededDataDir');
  if (!seeded || Object.keys(env).length > 0) return undefined;
  const dir = mkdtempSync(join(tmpdir(), 'sprout-e2e-'));
  cpSync(seeded, dir, { recursive: true });
  return dir;
}

/**
 * Where a test file's server keeps its data: a clone of the run's seeded PostgreSQL database
 * (server mode, tests/helpers/seeded.ts) when there is one, else a copy of the seeded data
 * directory (embedded). `embedded: true` asks for the embedded default whatever is reachable.
 */
async function seededStart(env: Record<string, string>, embedded: boolean) {
  const database = inject('seededDatabase');
  if (embedded || !database || Object.keys(env).length > 0) {
    return { server: await startSprout(env, seededCopy(env)), drop: async () => undefined };
  }
  const clone = await cloneSeeded(database);
  try {
    return { server: await startSprout(clone.env), drop: clone.drop };
  } catch (err) {
    await clone.drop().catch(() => undefined);
    throw err;
  }
}

export async function startE2E(
  env: Record<string, string> = {},
  { embedded = false }: { embedded?: boolean } = {},
): Promise<E2E> {
  const [{ server, drop }, browser] = await Promise.all([seededStart(env, embedded), launchChromium()]);
  const menus = await resolveMenuSource(server.url);
  mkdirSync(SCREENSHOTS, { recursive: true });
  return {
    server,
    browser,
    menus,
    async context({ config, viewport = { width: 1440, height: 900 } } = {}) {
      const context = await browser.newContext({
        baseURL: server.url,
        viewport,
        locale: 'zh-CN',
        reducedMotion: 'reduce',
      });
      if (config) {
        await context.addInitScript((c) => {
          (window as unknown as { __SPROUT_CONFIG__: unknown }).__SPROUT_CONFIG__ = c;
        }, config);
      }
      await installMenuFixtures(context, menus);
      return context;
    },
    async close() {
      await browser.close().catch(() => undefined);
      await server.stop('SIGKILL');
      await drop().catch(() => undefined);
    },
  };
}

/**
 * Collects uncaught page errors and Content-Security-Policy violations (the server's CSP
 * refusing a script, style, frame or connection), so a test can assert there were none.
 */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  // Chromium logs "Refused to …" for what the policy blocks; the page also hears an event.
  page.on('console', (m) => {
    if (m.type() === 'error' && /Refused to|Content Security Policy/i.test(m.text())) errors.push(`CSP: ${m.text()}`);
  });
  void page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) =>
      console.error(`Content Security Policy violation: ${e.violatedDirective} ${e.blockedURI}`),
    );
  });
  return errors;
}

export async function signIn(page: Page, user: { tenant: string; account: string; password: string } = ADMIN) {
  await page.goto('/login');
  await page.getByTestId('login-tenant').fill(user.tenant);
  await page.getByTestId('login-account').fill(user.account);
  await page.getByTestId('login-password').fill(user.password);
  await page.getByTestId('login-submit').click();
  await page.waitForURL('**/wel/index');
  await page.getByTestId('welcome-page').waitFor();
}

/** Waits until the sidebar shows the menu (fixtures or server). */
export async function waitForMenu(page: Page) {
  await page.getByTestId('sidebar-menu').waitFor({ state: 'visible' });
}

export async function shot(page: Page, name: string) {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.waitForTimeout(250); // let transitions settle
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
}
