/// <reference lib="dom" />
// Browser globals appear inside page.evaluate callbacks, which run in the page.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2E, shot, signIn, startE2E, waitForMenu, watchErrors } from './support/app';

/**
 * The web app under the server's security headers (issue 14): it works with a CSP that
 * refuses inline scripts — sign-in, the shell, the iframe route embedding an external
 * page, the API docs — and its login page follows the server's runtime configuration.
 */
describe('web app under the Content-Security-Policy', () => {
  let e2e: E2E;
  let external: Server;
  let externalUrl: string;

  beforeAll(async () => {
    // An external page on another origin, as a menu of the iframe route points to.
    external = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><title>Partner</title><h1 id="partner">外部页面 · partner page</h1>');
    });
    await new Promise<void>((resolve) => external.listen(0, '127.0.0.1', resolve));
    externalUrl = `http://127.0.0.1:${(external.address() as AddressInfo).port}/guide`;
    e2e = await startE2E();
  });
  afterAll(async () => {
    await e2e?.close();
    await new Promise((resolve) => external?.close(resolve));
  });

  it('serves the page with a CSP that refuses inline scripts, and index.html has none', async () => {
    const res = await fetch(`${e2e.server.url}/`);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const html = await res.text();
    // Every script of the built app is a file: an inline one would be refused.
    expect(html.match(/<script\b[^>]*>/g)?.every((tag) => /\bsrc=/.test(tag))).toBe(true);
  });

  it('signs in, opens screens and embeds an external page without any CSP violation', async () => {
    const context = await e2e.context();
    const page = await context.newPage();
    const errors = watchErrors(page);
    await signIn(page);
    await waitForMenu(page);
    await page.goto('/wel/dashboard');
    await page.getByTestId('dashboard-page').waitFor();
    // The iframe route (spec §2) embeds a page of another origin: frame-src allows http(s).
    await page.goto(`/myiframe/partner?src=${encodeURIComponent(externalUrl)}`);
    await page.getByTestId('iframe-page').waitFor();
    await page.frameLocator('iframe').locator('#partner').waitFor();
    expect(await page.frameLocator('iframe').locator('#partner').textContent()).toContain('partner page');
    await shot(page, 'iframe-under-csp');
    expect(await page.locator('iframe').getAttribute('sandbox')).toContain('allow-same-origin');
    // A page of the app's own origin is framed with an opaque origin: it cannot lift its sandbox.
    await page.goto(`/myiframe/self?src=${encodeURIComponent(`${new URL(page.url()).origin}/favicon.svg`)}`);
    await page.getByTestId('iframe-page').waitFor();
    const sandbox = await page.locator('iframe').getAttribute('sandbox');
    expect(sandbox).toContain('allow-scripts');
    expect(sandbox).not.toContain('allow-same-origin');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('refuses a script injected into the page, and the journeys’ error watch notices it', async () => {
    const context = await e2e.context();
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto('/login');
    await page.getByTestId('login-submit').waitFor();
    const ran = await page.evaluate(async () => {
      const w = window as unknown as { injected?: boolean };
      const script = document.createElement('script');
      script.textContent = 'window.injected = true';
      document.body.append(script);
      // An inline script runs as it is added; an inline handler before any listener added later.
      const img = document.createElement('img');
      img.setAttribute('onerror', 'window.injected = true');
      const failed = new Promise((resolve) => img.addEventListener('error', resolve));
      img.src = 'data:,';
      document.body.append(img);
      await failed;
      return w.injected === true;
    });
    expect(ran).toBe(false);
    await expect.poll(() => errors.filter((e) => e.startsWith('CSP:')).length).toBeGreaterThan(0);
    await context.close();
  });

  it('renders the API docs (public in the embedded default) under the same policy', async () => {
    const context = await e2e.context();
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto('/api/docs/');
    await page.locator('.swagger-ui .opblock').first().waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows the captcha and the social sources the server has configured, in both languages', async () => {
    const context = await e2e.context();
    // The server's answer as it would be with CAPTCHA_ENABLED=true and a GitHub provider
    // for tenant 000000 (the server side is tested in runtime-config.int.test.ts).
    const asked: string[] = [];
    await context.route('**/api/sprout/runtime-config**', async (route: Route) => {
      const url = new URL(route.request().url());
      asked.push(url.search);
      const tenantId = url.searchParams.get('tenantId') ?? '000000';
      const data = {
        tenantMode: true,
        defaultTenantId: '000000',
        tenantId,
        captchaMode: true,
        accessTokenTtl: 3600,
        tokenTime: 3000,
        social: tenantId === '000000' ? [{ source: 'github', name: 'GitHub' }] : [],
      };
      await route.fulfill({
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({ code: 200, success: true, data, msg: '' }),
      });
    });
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto('/login');
    await page.locator('[data-testid="login-captcha-image"] img').waitFor();
    await page.getByTestId('third-party-github').waitFor();
    expect(asked[0]).toContain('domain=127.0.0.1');
    await shot(page, 'login-server-config-zh');
    await page.getByTestId('lang-en').click();
    await page.getByText('Other ways to sign in').waitFor();
    expect(await page.getByTestId('third-party-github').getAttribute('aria-label')).toBe('Sign in with GitHub');
    await shot(page, 'login-server-config-en');
    // Another tenant typed on the login page: its own sources (none here).
    await page.getByTestId('login-tenant').fill('100001');
    await page.getByTestId('third-party-github').waitFor({ state: 'detached' });
    expect(asked.at(-1)).toContain('tenantId=100001');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows no captcha when the server has it off (the default)', async () => {
    const context = await e2e.context();
    const page = await context.newPage();
    await page.goto('/login');
    await page.getByTestId('login-submit').waitFor();
    const config = await page.evaluate(() =>
      fetch('/api/sprout/runtime-config').then((r) => r.json() as Promise<{ data: { captchaMode: boolean } }>),
    );
    expect(config.data.captchaMode).toBe(false);
    expect(await page.getByTestId('login-captcha-image').count()).toBe(0);
    await context.close();
  });
});
