/// <reference lib="dom" />
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../services/core/src/permissions/demo';
import { ADMIN, type E2E, shot, signIn, startE2E, waitForMenu, watchErrors } from './support/app';
import { dialog, field, notification, quiet, rowWith, setLanguage, table } from './support/crud';

const TEACHER = { tenant: '100001', account: 'teacher1', password: DEMO_PASSWORD };

/** Opens a screen through its menu entry (its section first, when folded) and waits for it. */
async function openMenu(page: Page, section: string, code: string, path: string, testId: string) {
  const entry = page.getByTestId(`menu-${code}`);
  if (!(await entry.isVisible())) await page.getByTestId(`menu-${section}`).click();
  await entry.click();
  await page.waitForURL(`**${path}`);
  await page.getByTestId(testId).waitFor();
}

const level = (page: Page, depth: number, text: string) =>
  page.locator(`tr[data-depth="${depth}"]`).filter({ hasText: text }).first();

async function expand(row: Locator) {
  await row.getByTestId('crud-tree-toggle').first().click();
  await expect.poll(() => row.getAttribute('data-expanded')).toBe('true');
}

/**
 * Issue 16, the menus screen and the tenants' dialogs: the platform administrator adds a menu
 * under the system section with an icon from the picker, edits it, finds it by a search and
 * deletes it; sets the demo kindergarten's licence and sets it back, binds it to a data source and unbinds it. A teacher has no menus entry.
 */
describe('menus and tenant settings', () => {
  let e2e: E2E;
  let page: Page;
  let errors: string[] = [];

  beforeAll(async () => {
    e2e = await startE2E();
    page = await (await e2e.context()).newPage();
    errors = watchErrors(page);
    await signIn(page, ADMIN);
    await waitForMenu(page);
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it('shows the catalogue as a tree, buttons with their own badge', async () => {
    await openMenu(page, 'system', 'menu', '/system/menu/index', 'menu-page');
    const system = level(page, 0, '系统管理');
    await expand(system);
    const menus = level(page, 1, '菜单管理');
    await expand(menus);
    await level(page, 2, '新增菜单').getByTestId('crud-badge-2').waitFor();
    await quiet(page);
    await shot(page, 'menus-list-zh');
  });

  it('adds a menu under the system section with an icon from the picker', async () => {
    await level(page, 0, '系统管理').getByTestId('crud-row-add').first().click();
    const d = dialog(page);
    await d.getByText('新增菜单').waitFor();
    await expect.poll(() => field(d, 'parentId').inputValue()).toBe('系统管理');
    await field(d, 'name').fill('浏览器测试菜单');
    await field(d, 'code').fill('e2e_menu');
    await field(d, 'path').fill('/e2e/menu');
    await field(d, 'source').click();
    const picker = page.getByTestId('crud-icon-picker');
    await picker.waitFor();
    await page.getByTestId('crud-icon-search').fill('setting');
    await expect.poll(() => picker.locator('[data-testid^="crud-icon-icon"]').count()).toBe(1);
    await page.getByTestId('crud-icon-search').fill('');
    await shot(page, 'menus-icon-picker-zh');
    await page.getByTestId('crud-icon-iconicon_setting').click();
    await expect.poll(() => field(d, 'source').inputValue()).toBe('iconfont iconicon_setting');
    await page.getByTestId('crud-dialog-save').click();
    await notification(page, '新增成功');
    await d.waitFor({ state: 'hidden' });
    await level(page, 1, '浏览器测试菜单').waitFor();
  });

  it('edits it, finds it by a search and deletes it', async () => {
    await level(page, 1, '浏览器测试菜单').getByTestId('crud-row-edit').click();
    const d = dialog(page);
    await expect.poll(() => field(d, 'code').inputValue()).toBe('e2e_menu');
    await field(d, 'name').fill('浏览器测试菜单改');
    await page.getByTestId('crud-dialog-save').click();
    await notification(page, '修改成功');
    await d.waitFor({ state: 'hidden' });

    const search = page.getByTestId('crud-search');
    await field(search, 'name').fill('浏览器测试');
    await page.getByTestId('crud-search-submit').click();
    await expect.poll(() => table(page).getAttribute('data-tree')).toBe('searched');
    const mine = rowWith(page, '浏览器测试菜单改');
    await mine.waitFor();
    await expect.poll(() => rowWith(page, '菜单管理').count()).toBe(0);

    await mine.locator('input[type="checkbox"]').check();
    await page.getByTestId('crud-batch-delete').click();
    await page.getByTestId('crud-confirm-delete').click();
    await notification(page, '删除成功');
    await expect.poll(() => rowWith(page, '浏览器测试菜单改').count()).toBe(0);
    await page.getByTestId('crud-search-reset').click();
    await expect.poll(() => table(page).getAttribute('data-tree')).toBe('lazy');
  });

  it('speaks English too', async () => {
    await setLanguage(page, 'en');
    const system = level(page, 0, 'System');
    await table(page).getByText('Menu name').waitFor();
    await expand(system);
    await expand(level(page, 1, 'Menus'));
    await quiet(page);
    await shot(page, 'menus-list-en');
    await system.getByTestId('crud-row-add').first().click();
    await dialog(page).getByText('Add menu').waitFor();
    await field(dialog(page), 'source').click();
    await page.getByTestId('crud-icon-picker').waitFor();
    await shot(page, 'menus-icon-picker-en');
    await page.getByTestId('crud-icon-iconicon_principal').click();
    await page.getByTestId('crud-icon-picker').waitFor({ state: 'hidden' });
    await page.getByTestId('crud-dialog-cancel').click();
    await dialog(page).waitFor({ state: 'hidden' });
    await setLanguage(page, 'zh');
  });

  it('sets the demo kindergarten’s licence and sets it back', async () => {
    await openMenu(page, 'system', 'tenant', '/system/tenant/index', 'tenants-page');
    const demo = rowWith(page, '100001');
    await demo.waitFor();
    const before = {
      accountNumber: ((await demo.locator('td').nth(5).textContent()) ?? '').trim(),
      expireTime: ((await demo.locator('td').nth(6).textContent()) ?? '').trim(),
    };
    await page.getByTestId('crud-toolbar-setting').click();
    await notification(page, '请选择至少一条数据');
    await demo.locator('input[type="checkbox"]').check();
    await page.getByTestId('crud-toolbar-setting').click();
    const d = page.getByTestId('crud-action-dialog');
    await d.getByText('授权配置').first().waitFor();
    await expect.poll(() => field(d, 'accountNumber').inputValue()).toBe(before.accountNumber);
    await field(d, 'accountNumber').fill('88');
    await field(d, 'expireTime').fill('2031/1/1');
    await page.getByTestId('crud-action-save').click();
    await d.getByText('格式为 yyyy-MM-dd').waitFor();
    await field(d, 'expireTime').fill('2031-01-01');
    await quiet(page);
    await shot(page, 'tenants-setting-zh');
    await page.getByTestId('crud-action-save').click();
    await notification(page, '操作成功');
    await d.waitFor({ state: 'hidden' });
    await rowWith(page, '2031-01-01 00:00:00').waitFor();

    await setLanguage(page, 'en');
    await page.getByTestId('crud-toolbar-setting').click();
    await d.getByText('Licence settings').first().waitFor();
    await expect.poll(() => field(d, 'accountNumber').inputValue()).toBe('88');
    await quiet(page);
    await shot(page, 'tenants-setting-en');
    await field(d, 'accountNumber').fill(before.accountNumber);
    await field(d, 'expireTime').fill(before.expireTime);
    await page.getByTestId('crud-action-save').click();
    await d.waitFor({ state: 'hidden' });
    await expect.poll(() => rowWith(page, '2031-01-01 00:00:00').count()).toBe(0);
    await setLanguage(page, 'zh');

    // The data source of one tenant: its row's button; an id, then empty again (unbound).
    await demo.getByTestId('crud-row-datasource').click();
    await d.getByText('数据源配置').first().waitFor();
    await field(d, 'datasourceId').fill('0');
    await page.getByTestId('crud-action-save').click();
    await d.getByText('请输入数据源ID（正整数）').waitFor();
    // A data source that does not exist: the server's refusal, nothing moved (the move itself:
    // services/api/src/modules/datasource/datasource.int.test.ts).
    await field(d, 'datasourceId').fill('5');
    await page.getByTestId('crud-action-save').click();
    await page.getByText('数据源不存在：5').first().waitFor();
    await page.keyboard.press('Escape');
    await d.waitFor({ state: 'hidden' });
    expect(errors).toEqual([]);
  });

  it('gives a kindergarten teacher no menus entry', async () => {
    const teacher = await (await e2e.context()).newPage();
    await signIn(teacher, TEACHER);
    await waitForMenu(teacher);
    await teacher.getByTestId('menu-lesson').waitFor();
    expect(await teacher.getByTestId('menu-menu').count()).toBe(0);
    await teacher.goto('/system/menu/index');
    await teacher.waitForURL('**/404');
  });
});
