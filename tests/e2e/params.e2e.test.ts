/// <reference lib="dom" />
// Browser globals appear inside page.evaluate callbacks, which run in the page.
import type { Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../services/core/src/permissions/demo';
import { type E2E, shot, signIn, startE2E, waitForMenu, watchErrors } from './support/app';

const ADMIN = { tenant: '100001', account: 'admin', password: DEMO_PASSWORD };

interface Param {
  id: string;
  paramName: string;
  paramKey: string;
  paramValue: string;
  remark: string;
}

/**
 * The Saber contract of `/api/blade-system/param` (list, detail, submit, remove), answered in
 * the browser: the parameters screen is built against the contract while its server half is
 * written elsewhere. Every call the screen makes is recorded for the assertions.
 */
function fakeParams(seed: number) {
  const rows: Param[] = Array.from({ length: seed }, (_, i) => ({
    id: String(1000 + i),
    paramName: `参数${i + 1}`,
    paramKey: `demo.key.${String(i + 1).padStart(2, '0')}`,
    paramValue: `value ${i + 1}`,
    remark: '',
  }));
  const calls: { path: string; query: URLSearchParams; body: unknown }[] = [];
  const ok = (route: Route, data: unknown, msg = '操作成功') =>
    route.fulfill({ json: { code: 200, success: true, data, msg } });
  const handle = async (route: Route) => {
    const url = new URL(route.request().url());
    const path = url.pathname.replace('/api/blade-system/param/', '');
    const raw = route.request().postData();
    const body = raw ? JSON.parse(raw) : null;
    calls.push({ path, query: url.searchParams, body });
    const q = url.searchParams;
    if (path === 'list') {
      const name = q.get('paramName') ?? '';
      const key = q.get('paramKey') ?? '';
      const found = rows.filter((r) => r.paramName.includes(name) && r.paramKey.includes(key));
      const current = Number(q.get('current'));
      const size = Number(q.get('size'));
      const records = found.slice((current - 1) * size, current * size);
      return ok(route, { records, total: found.length, size, current, pages: Math.ceil(found.length / size) });
    }
    if (path === 'detail') return ok(route, rows.find((r) => r.id === q.get('id')) ?? null);
    if (path === 'submit') {
      const b = body as Partial<Param>;
      if (rows.some((r) => r.paramKey === b.paramKey && r.id !== b.id)) {
        return route.fulfill({
          status: 400,
          json: {
            code: 400,
            success: false,
            data: null,
            msg: `参数键名已存在：${b.paramKey}`,
            fields: [{ field: 'paramKey', message: '参数键名已存在' }],
          },
        });
      }
      const row = { ...(rows.find((r) => r.id === b.id) ?? { id: String(5000 + rows.length) }), ...b } as Param;
      const at = rows.findIndex((r) => r.id === row.id);
      if (at >= 0) rows[at] = row;
      else rows.unshift(row);
      return ok(route, row);
    }
    if (path === 'remove') {
      for (const id of (q.get('ids') ?? '').split(',')) {
        const at = rows.findIndex((r) => r.id === id);
        if (at >= 0) rows.splice(at, 1);
      }
      return ok(route, null, '删除成功');
    }
    return route.fulfill({ status: 404, json: { code: 404, success: false, data: null, msg: 'not found' } });
  };
  return { rows, calls, handle };
}

const rows = (page: Page) => page.getByTestId('crud-table').locator('tbody tr[data-testid^="crud-row-"]');
const field = (page: Page, prop: string) => page.getByRole('dialog').getByTestId(`crud-field-${prop}`);

describe('system → parameters against the Saber contract (answered in the browser)', () => {
  let e2e: E2E;
  let page: Page;
  let errors: string[];
  const fake = fakeParams(12);

  beforeAll(async () => {
    e2e = await startE2E();
    page = await (await e2e.context()).newPage();
    errors = watchErrors(page);
    await page.route('**/api/blade-system/param/**', fake.handle);
    await signIn(page, ADMIN);
    await waitForMenu(page);
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it('lists with current, size and the search fields', async () => {
    await page.goto('/system/param/index');
    await page.getByTestId('params-page').waitFor();
    await expect.poll(() => rows(page).count()).toBe(10);
    const first = fake.calls.find((c) => c.path === 'list');
    expect(Object.fromEntries(first?.query ?? [])).toEqual({ current: '1', size: '10' });

    await page.getByTestId('crud-search').getByTestId('crud-field-paramKey').fill(' key.1 ');
    await page.getByTestId('crud-search-submit').click();
    await expect.poll(() => rows(page).count()).toBe(3); // 10, 11, 12
    expect(Object.fromEntries(fake.calls.at(-1)?.query ?? [])).toEqual({ current: '1', size: '10', paramKey: 'key.1' });
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
    await field(page, 'paramKey').fill('demo.key.01');
    await field(page, 'paramValue').fill('萌芽');
    await page.getByTestId('crud-dialog-save').click();
    await page.getByRole('dialog').getByText('参数键名已存在', { exact: true }).waitFor();
    await field(page, 'paramKey').fill('site.title');
    await page.getByTestId('crud-dialog-save').click();
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    const submitted = fake.calls.filter((c) => c.path === 'submit').at(-1);
    expect(submitted?.body).toEqual({ paramName: '站点标题', paramKey: 'site.title', paramValue: '萌芽', remark: '' });
    await rows(page).filter({ hasText: 'site.title' }).waitFor();
  });

  it('removes the selected rows with ids=a,b after confirming', async () => {
    const boxes = rows(page).locator('input[type="checkbox"]');
    await boxes.nth(1).check();
    await boxes.nth(2).check();
    await page.getByTestId('crud-batch-delete').click();
    await page.getByTestId('crud-confirm-delete').click();
    await expect.poll(() => fake.calls.filter((c) => c.path === 'remove').length).toBe(1);
    expect(fake.calls.find((c) => c.path === 'remove')?.query.get('ids')).toBe('1000,1001');
    await expect.poll(() => rows(page).filter({ hasText: 'demo.key.01' }).count()).toBe(0);
    await expect.poll(() => rows(page).count()).toBe(10);
    expect(errors).toEqual([]);
  });
});
