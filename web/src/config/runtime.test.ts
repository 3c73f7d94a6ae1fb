import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const SERVER = {
  tenantMode: true,
  defaultTenantId: '000000',
  tenantId: '100001',
  captchaMode: true,
  accessTokenTtl: 1200,
  tokenTime: 1000,
  social: [{ source: 'github', name: 'GitHub' }],
};

function serve(byTenant: Record<string, Partial<typeof SERVER>> = {}) {
  return vi.fn(async (url: string) => {
    const tenantId = new URL(url, 'http://localhost').searchParams.get('tenantId') ?? '';
    const data = { ...SERVER, ...(byTenant[tenantId] ?? {}) };
    return new Response(JSON.stringify({ code: 200, success: true, data, msg: '操作成功' }), { status: 200 });
  });
}

/** A fresh copy of the configuration modules, as a page load gets (overrides read at import). */
async function load(overrides?: Record<string, unknown>) {
  vi.resetModules();
  if (overrides) vi.stubGlobal('window', { __SPROUT_CONFIG__: overrides, location: { hostname: 'localhost' } });
  const website = await import('./website');
  const runtime = await import('./runtime');
  return { ...website, ...runtime };
}

beforeEach(() => vi.unstubAllGlobals());
afterEach(() => vi.unstubAllGlobals());

describe('the web app follows the server’s runtime configuration', () => {
  it('reads the server’s settings at start: captcha, token time, tenant mode, social sources', async () => {
    const fetch = serve();
    vi.stubGlobal('fetch', fetch);
    const { website, loadRuntimeConfig } = await load();
    expect(website.captchaMode).toBe(false);
    expect(website.tokenTime).toBe(3000);
    await loadRuntimeConfig('kg.example.com');
    expect(String(fetch.mock.calls[0]?.[0])).toBe('/api/sprout/runtime-config?domain=kg.example.com');
    expect(website.captchaMode).toBe(true);
    expect(website.tokenTime).toBe(1000);
    expect(website.thirdParty).toEqual([{ source: 'github', kind: 'social', label: { zh: 'GitHub', en: 'GitHub' } }]);
    // What the server does not decide keeps its default.
    expect(website.homePath).toBe('/wel/index');
  });

  it('keeps the defaults when the server cannot be reached', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    const { website, loadRuntimeConfig } = await load();
    await loadRuntimeConfig('localhost');
    expect(website.captchaMode).toBe(false);
    expect(website.thirdParty).toEqual([]);
  });

  it('lets a deployment’s window.__SPROUT_CONFIG__ override win over the server', async () => {
    vi.stubGlobal('fetch', serve());
    const { website, loadRuntimeConfig } = await load({ captchaMode: false, tokenTime: 4 });
    await loadRuntimeConfig('localhost');
    expect(website.captchaMode).toBe(false);
    expect(website.tokenTime).toBe(4);
    expect(website.thirdParty).toHaveLength(1);
  });

  it('asks for the social sources of the tenant typed on the login page, once it is a tenant number', async () => {
    const fetch = serve({ '100002': { tenantId: '100002', social: [] }, '100003': { tenantId: '100003' } });
    vi.stubGlobal('fetch', fetch);
    const { loadRuntimeConfig, socialSourcesFor } = await load();
    await loadRuntimeConfig('localhost');
    fetch.mockClear();
    // The tenant read at start: no call.
    expect(await socialSourcesFor('100001')).toHaveLength(1);
    expect(fetch).not.toHaveBeenCalled();
    // Half a tenant number: no buttons, no call.
    expect(await socialSourcesFor('1000')).toEqual([]);
    expect(fetch).not.toHaveBeenCalled();
    expect(await socialSourcesFor('100002')).toEqual([]);
    expect(String(fetch.mock.calls[0]?.[0])).toBe('/api/sprout/runtime-config?tenantId=100002');
    expect((await socialSourcesFor('100003')).map((s) => s.source)).toEqual(['github']);
  });
});
