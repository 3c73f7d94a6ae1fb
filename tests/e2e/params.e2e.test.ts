/// <reference lib="dom" />
import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../services/core/src/permissions/demo';
import { type E2E, shot, signIn, startE2E, waitForMenu, watchErrors } from './support/app';

const ADMIN = { tenant: '100001', account: 'admin', password: DEMO_PASSWORD };
const BULK = 10; // with the demo kindergarten's 3 parameters: 13, two pages of 10

const rows = (page: Page) => page.getByTestId('crud-table').locator('tbody tr[data-testid^="crud-row-"]');
const field = (page: Page, prop: string) => page.getByRole('dialog').getByTestId(`crud-field-${prop}`);

/** The calls the screen made to `/api/blade-system/param/<path>`, in order. */
function recordCalls(page: Page) {
  const calls: { path: string; query: URLSearchParams; body: unknown }[] = [];
  page.on('request', (r: Request) => {
    const url = new URL(r.url());
    if (!url.pathname.startsWith('/api/blade-system/param/')) return;
    const raw = r.postData();
    calls.push({
      path: url.pathname.replace('/api/blade-system/param/', ''),
      query: url.searchParams,
      body: raw ? JSON.parse(raw) : null,
    });
  });
  return calls;
}

/**
 * The parameters screen on the CRUD kit against the real `/api/blade-system/param`: the Saber
 * calls it sends (paging, trimmed search fields, a JSON body, `ids=a,b`), validation on blur,
 * the server's refusal of a taken key beside its field.
 */
describe('system → parameters (CRUD kit, real server)', () => {
  let e2e: E2E;
  let page: Page;
  let errors: string[];
  let calls: ReturnType<typeof recordCalls>;
  let bearer = '';

  beforeAll(async () => {
    e2e = await startE2E();
    page = await (await e2e.context()).newPage();
    errors = watchErrors(page);
    calls = recordCalls(page);
    page.on('request', (r) => {
      const value = r.headers()['blade-auth'];
      if (value) bearer = value;
    });
    await signIn(page, ADMIN);
    await waitForMenu(page);
    for (let i = 1; i <= BULK; i += 1) {
      const r = await fetch(`${e2e.server.url}/api/blade-system/param/submit`, {
        method: 'POST',
        headers: {
          Authorization: `Basic ${Buffer.from('saber:saber_secret').toString('base64')}`,
          'Blade-Auth': bearer,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({
          paramName: `参数${i}`,
          paramKey: `demo.key.${String(i).padStart(2, '0')}`,
          paramValue: `value ${i}`,
        }),
      });
      expect(r.status, await r.text()).toBe(200);
    }
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it('lists with current, size and the search fields', async () => {
    await page.goto('/system/param/index');
    await page.getByTestId('params-page').waitFor();
    await expect.poll(() => rows(page).count()).toBe(10);
    const first = calls.find((c) => c.path === 'list');
    expect(Object.fromEntries(first?.query ?? [])).toEqual({ current: '1', size: '10' });

    await page.getByTestId('crud-search').getByTestId('crud-field-paramKey').fill(' key.1 ');
    await page.getByTestId('crud-search-submit').click();
    await expect.poll(() => rows(page).count()).toBe(1); // demo.key.10
    expect(Object.fromEntries(calls.filter((c) => c.path === 'list').at(-1)?.query ?? [])).toEqual({
      current: '1',
      size: '10',
      paramKey: 'key.1',
    });
    await page.getByTestId('crud-search-reset').click();
    await expect.poll(() => rows(page).count()).toBe(10);
  });

  it('asks for the three required fields on blur (spec §5), submits JSON, shows the server’s field error', async () => {
    await page.getByTestId('crud-add').click();
    for (const prop of ['paramName', 'paramKey', 'paramValue']) {
      await field(page, prop).focus();
      await field(page, prop).blur();
    }
    for (const text of ['请输入参数名称', '请输入参数键名', '请输入参数键值']) {
      await page.getByRole('dialog').getByText(text).waitFor();
    }
    await shot(page, 'params-add-zh');
    await field(page, 'paramName').fill('站点标题');
    await field(page, 'paramKey').fill('school.year');
    await field(page, 'paramValue').fill('萌芽');
    await page.getByTestId('crud-dialog-save').click();
    // The server names the field: its message shows under it, and the dialog stays.
    await expect.poll(() => field(page, 'paramKey').getAttribute('aria-invalid')).toBe('true');
    await page
      .getByRole('dialog')
      .getByText(/参数键名已存在/)
      .first()
      .waitFor();
    await field(page, 'paramKey').fill('site.title');
    await page.getByTestId('crud-dialog-save').click();
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    const submitted = calls.filter((c) => c.path === 'submit').at(-1);
    expect(submitted?.body).toEqual({ paramName: '站点标题', paramKey: 'site.title', paramValue: '萌芽', remark: '' });
    await page.getByTestId('crud-search').getByTestId('crud-field-paramKey').fill('site.title');
    await page.getByTestId('crud-search-submit').click();
    await expect.poll(() => rows(page).count()).toBe(1);
    await page.getByTestId('crud-search-reset').click();
  });

  it('removes the selected rows with ids=a,b after confirming', async () => {
    await page.getByTestId('crud-search').getByTestId('crud-field-paramName').fill('参数');
    await page.getByTestId('crud-search-submit').click();
    await expect.poll(() => rows(page).count()).toBe(BULK);
    // The searched list, not the one before it (both can hold BULK rows).
    await expect.poll(() => rows(page).filter({ hasNotText: '参数' }).count()).toBe(0);
    const ids = await Promise.all(
      [0, 1].map(async (n) => (await rows(page).nth(n).getAttribute('data-testid'))?.replace('crud-row-', '')),
    );
    const boxes = rows(page).locator('input[type="checkbox"]');
    await boxes.nth(0).check();
    await boxes.nth(1).check();
    await page.getByTestId('crud-batch-delete').click();
    await page.getByTestId('crud-confirm-delete').click();
    await expect.poll(() => calls.filter((c) => c.path === 'remove').length).toBe(1);
    expect(calls.find((c) => c.path === 'remove')?.query.get('ids')).toBe(ids.join(','));
    await expect.poll(() => rows(page).count()).toBe(BULK - 2);
    expect(errors).toEqual([]);
  });
});
