/// <reference lib="dom" />
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../services/core/src/permissions/demo';
import { ADMIN as PLATFORM, type E2E, shot, signIn, startE2E, waitForMenu, watchErrors } from './support/app';
import { dialog, field, notification, openMenu, quiet, rowsIn, rowWith, rows, setLanguage } from './support/crud';

const KINDERGARTEN = { tenant: '100001', account: 'admin', password: DEMO_PASSWORD };
const TEACHER = { tenant: '100001', account: 'teacher1', password: DEMO_PASSWORD };

const searchIn = (scope: Page | Locator, prop: string) => field(scope.getByTestId('crud-search').first(), prop);
const parents = (page: Page) => page.getByTestId('crud-parents');
const children = (page: Page) => page.getByTestId('crud-children');

/** No untranslated text: no raw i18n key such as `system.scope.x` or `crud.table.y` on the page. */
async function noRawKeys(page: Page) {
  const text = await page.locator('body').innerText();
  expect(text).not.toMatch(/\b(system|crud|common|menu)\.[a-z][A-Za-z]*(\.[A-Za-z]+)*\b/);
}

/** Deletes a row through its button, the confirm dialog asking first. */
async function deleteRow(page: Page, row: Locator, ask = '确定删除这条数据？', done = '删除成功') {
  await row.getByTestId('crud-row-delete').click();
  await page.getByText(ask).waitFor();
  await page.getByTestId('crud-confirm-delete').click();
  await notification(page, done);
  await expect.poll(() => row.count()).toBe(0);
}

/**
 * Issue 16: the console's remaining screen families in the browser against the real server —
 * data and API scopes, regions and clients (the platform's administrator), the business
 * dictionaries with paging (the demo kindergarten's administrator): each creates, edits,
 * searches and deletes a row; a teacher sees none of these menu entries.
 */
describe('console families: scopes, regions, clients, business dictionaries', () => {
  let e2e: E2E;
  let errors: string[] = [];

  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(async () => {
    await e2e?.close();
  });

  describe('the platform administrator', () => {
    let page: Page;
    beforeAll(async () => {
      page = await (await e2e.context()).newPage();
      errors = watchErrors(page);
      await signIn(page, PLATFORM);
      await waitForMenu(page);
    });

    it('data scopes: a required menu, then added, searched, edited and deleted', async () => {
      await openMenu(page, 'data_scope', '/authority/datascope/index', 'data-scopes-page');
      await expect.poll(() => rows(page).count()).toBeGreaterThan(0);
      await quiet(page);
      await shot(page, 'families-data-scopes-zh');

      await page.getByTestId('crud-add').click();
      const d = dialog(page);
      await d.getByText('新增数据权限').waitFor();
      await page.getByTestId('crud-dialog-save').click();
      await d.getByText('请选择所属菜单').waitFor();
      await d.getByText('请输入权限名称').waitFor();
      await field(d, 'menuId').click();
      await page.getByRole('option', { name: '幼儿信息' }).click();
      await field(d, 'scopeName').fill('浏览器数据权限');
      await field(d, 'resourceCode').fill('e2e_family');
      await quiet(page);
      await shot(page, 'families-data-scopes-add-zh');
      // The server knows which resources have data scopes: an unknown one is refused, and said so.
      await page.getByTestId('crud-dialog-save').click();
      await page.locator('.mantine-Notification-root').filter({ hasText: '未知的数据权限资源：e2e_family' }).waitFor();
      await field(d, 'resourceCode').fill('student');
      await page.getByTestId('crud-dialog-save').click();
      await notification(page, '新增成功');
      await d.waitFor({ state: 'hidden' });

      await searchIn(page, 'scopeName').fill('浏览器数据权限');
      await page.getByTestId('crud-search-submit').click();
      await expect.poll(() => rows(page).count()).toBe(1);
      const mine = rowWith(page, '浏览器数据权限');
      await mine.getByTestId('crud-row-edit').click();
      await expect.poll(() => field(d, 'scopeName').inputValue()).toBe('浏览器数据权限');
      await field(d, 'scopeName').fill('浏览器数据权限（已修改）');
      await page.getByTestId('crud-dialog-save').click();
      await notification(page, '修改成功');
      await d.waitFor({ state: 'hidden' });
      await rowWith(page, '浏览器数据权限（已修改）').waitFor();
      await deleteRow(page, mine);
      await page.getByTestId('crud-search-reset').click();
      await expect.poll(() => rows(page).count()).toBeGreaterThan(0);
      expect(errors).toEqual([]);
    });

    it('API scopes: a path in the wrong shape is refused, then added, searched, edited and deleted', async () => {
      await openMenu(page, 'api_scope', '/authority/apiscope/index', 'api-scopes-page');
      await expect.poll(() => rows(page).count()).toBeGreaterThan(0);
      await quiet(page);
      await shot(page, 'families-api-scopes-zh');

      await page.getByTestId('crud-add').click();
      const d = dialog(page);
      await d.getByText('新增接口权限').waitFor();
      await field(d, 'menuId').click();
      await page.getByRole('option', { name: '幼儿信息' }).click();
      await field(d, 'scopeName').fill('浏览器接口权限');
      await field(d, 'scopePath').fill('/e2e/family');
      await field(d, 'scopePath').blur();
      await d.getByText('格式为“方法 /api/…”，如 GET /api/blade-system/post/**').waitFor();
      await field(d, 'scopePath').fill('GET /api/e2e-family/**');
      await field(d, 'resourceCode').fill('e2e_family_api');
      await quiet(page);
      await shot(page, 'families-api-scopes-add-zh');
      await page.getByTestId('crud-dialog-save').click();
      await notification(page, '新增成功');
      await d.waitFor({ state: 'hidden' });

      await searchIn(page, 'resourceCode').fill('e2e_family_api');
      await page.getByTestId('crud-search-submit').click();
      await expect.poll(() => rows(page).count()).toBe(1);
      const mine = rowWith(page, 'e2e_family_api');
      await mine.getByTestId('crud-row-edit').click();
      await expect.poll(() => field(d, 'scopePath').inputValue()).toBe('GET /api/e2e-family/**');
      await field(d, 'scopePath').fill('POST /api/e2e-family/submit');
      await page.getByTestId('crud-dialog-save').click();
      await notification(page, '修改成功');
      await d.waitFor({ state: 'hidden' });
      await rowWith(page, 'POST /api/e2e-family/submit').waitFor();
      await deleteRow(page, mine);
      expect(errors).toEqual([]);
    });

    it('regions: a code that is not digits is refused; a region under 广州市 added, renamed and deleted', async () => {
      await openMenu(page, 'region', '/base/region/index', 'region-page');
      const guangdong = page.locator('tr[data-depth="0"]').filter({ hasText: '广东省' });
      await guangdong.getByTestId('crud-tree-toggle').click();
      await expect.poll(() => guangdong.getAttribute('data-expanded')).toBe('true');
      const guangzhou = page.locator('tr[data-depth="1"]').filter({ hasText: '广州市' });
      await guangzhou.waitFor();
      await guangzhou.scrollIntoViewIfNeeded();
      await quiet(page);
      await shot(page, 'families-regions-zh');

      await guangzhou.getByTestId('crud-row-add').click();
      const d = dialog(page);
      await d.getByText('新增行政区划').waitFor();
      expect(await field(d, 'parentCode').inputValue()).toBe('440100');
      await field(d, 'code').fill('44AB');
      await field(d, 'code').blur();
      await d.getByText('区划编号须为 2 至 12 位数字').waitFor();
      await field(d, 'code').fill('440188');
      await field(d, 'name').fill('浏览器区');
      await quiet(page);
      await shot(page, 'families-regions-add-zh');
      await page.getByTestId('crud-dialog-save').click();
      await notification(page, '新增成功');
      await d.waitFor({ state: 'hidden' });
      if ((await guangzhou.getAttribute('data-expanded')) !== 'true')
        await guangzhou.getByTestId('crud-tree-toggle').click();
      const mine = page.locator('tr[data-depth="2"]').filter({ hasText: '440188' });
      await mine.getByTestId('crud-row-edit').click();
      await expect.poll(() => field(d, 'name').inputValue()).toBe('浏览器区');
      await field(d, 'name').fill('浏览器区（已修改）');
      await page.getByTestId('crud-dialog-save').click();
      await notification(page, '修改成功');
      await d.waitFor({ state: 'hidden' });
      await mine.filter({ hasText: '浏览器区（已修改）' }).waitFor();
      await deleteRow(page, mine);
      expect(errors).toEqual([]);
    });

    it('clients: a bad id is refused; added (secret once), searched, edited and deleted', async () => {
      await openMenu(page, 'client', '/system/client/index', 'client-page');
      await rowWith(page, 'saber').waitFor();
      await quiet(page);
      await shot(page, 'families-clients-zh');

      await page.getByTestId('crud-add').click();
      const d = dialog(page);
      await d.getByText('新增应用').waitFor();
      await field(d, 'clientId').fill('bad id!');
      await field(d, 'clientId').blur();
      await d.getByText('只能包含字母、数字、下划线、点和连字符').waitFor();
      await field(d, 'clientId').fill('e2e_family');
      await quiet(page);
      await shot(page, 'families-clients-add-zh');
      await page.getByTestId('crud-dialog-save').click();
      const secret = page.getByTestId('crud-secret-value');
      await secret.waitFor();
      expect((await secret.textContent())?.trim()).toMatch(/^\S{32}$/);
      await page.getByText('密钥只显示这一次').waitFor();
      await page.getByTestId('crud-secret-close').click();
      await secret.waitFor({ state: 'hidden' });

      await searchIn(page, 'clientId').fill('e2e_family');
      await page.getByTestId('crud-search-submit').click();
      await expect.poll(() => rows(page).count()).toBe(1);
      const mine = rowWith(page, 'e2e_family');
      await mine.getByTestId('crud-row-edit').click();
      await expect.poll(() => field(d, 'clientSecret').inputValue()).toBe('******');
      await field(d, 'accessTokenValidity').fill('7200');
      await page.getByTestId('crud-dialog-save').click();
      await notification(page, '修改成功');
      await d.waitFor({ state: 'hidden' });
      await mine.filter({ hasText: '7200' }).waitFor();
      await deleteRow(page, mine);
      expect(errors).toEqual([]);
    });

    it('in English: each screen and its add dialog, a client deleted with the English confirm', async () => {
      await setLanguage(page, 'en');
      const screens = [
        ['data_scope', '/authority/datascope/index', 'data-scopes-page', 'data-scopes'],
        ['api_scope', '/authority/apiscope/index', 'api-scopes-page', 'api-scopes'],
        ['client', '/system/client/index', 'client-page', 'clients'],
      ] as const;
      for (const [code, path, testId, name] of screens) {
        await openMenu(page, code, path, testId);
        await expect.poll(() => rows(page).count()).toBeGreaterThan(0);
        await noRawKeys(page);
        await quiet(page);
        await shot(page, `families-${name}-en`);
        await page.getByTestId('crud-add').click();
        await dialog(page).getByTestId('crud-dialog-save').waitFor();
        await page.getByTestId('crud-dialog-save').click();
        await noRawKeys(page);
        await quiet(page);
        await shot(page, `families-${name}-add-en`);
        if (name === 'api-scopes') await dialog(page).getByPlaceholder('Enter API path').waitFor();
        await page.getByTestId('crud-dialog-cancel').click();
        await dialog(page).waitFor({ state: 'hidden' });
      }

      // A client added and deleted in English.
      await page.getByTestId('crud-add').click();
      await field(dialog(page), 'clientId').fill('e2e_family_en');
      await page.getByTestId('crud-dialog-save').click();
      await page.getByText('This secret is shown only once').waitFor();
      await page.getByTestId('crud-secret-close').click();
      await deleteRow(page, rowWith(page, 'e2e_family_en'), 'Delete this row?', 'Deleted');

      await openMenu(page, 'region', '/base/region/index', 'region-page');
      const guangdong = page.locator('tr[data-depth="0"]').filter({ hasText: '广东省' });
      await guangdong.waitFor();
      if ((await guangdong.getAttribute('data-expanded')) !== 'true')
        await guangdong.getByTestId('crud-tree-toggle').click();
      const guangzhou = page.locator('tr[data-depth="1"]').filter({ hasText: '广州市' });
      await guangzhou.waitFor();
      await noRawKeys(page);
      await quiet(page);
      await shot(page, 'families-regions-en');
      await guangzhou.getByTestId('crud-row-add').click();
      await field(dialog(page), 'code').waitFor();
      await noRawKeys(page);
      await quiet(page);
      await shot(page, 'families-regions-add-en');
      await page.getByTestId('crud-dialog-cancel').click();
      await setLanguage(page, 'zh');
      expect(errors).toEqual([]);
    });
  });

  describe('the kindergarten’s administrator: business dictionaries', () => {
    let page: Page;
    beforeAll(async () => {
      page = await (await e2e.context()).newPage();
      errors = watchErrors(page);
      await signIn(page, KINDERGARTEN);
      await waitForMenu(page);
    });

    it('pages the 57 entries of 民族: 10 a page, page 2, then 30 a page; searches them', async () => {
      await openMenu(page, 'dict_biz', '/system/dictbiz/index', 'dictbiz-page');
      const ethnic = rowsIn(parents(page)).filter({ hasText: 'ethnic' });
      await ethnic.click();
      await children(page).getByText('第 1–10 条，共 57 条').waitFor();
      await expect.poll(() => rowsIn(children(page)).count()).toBe(10);
      const firstPage = await rowsIn(children(page)).first().textContent();

      await children(page).locator('.mantine-Pagination-root').getByRole('button', { name: '2', exact: true }).click();
      await children(page).getByText('第 11–20 条，共 57 条').waitFor();
      // The footer moves at once; page 1's rows stay (under the loader) until page 2's arrive.
      await expect.poll(() => rowsIn(children(page)).first().textContent()).not.toBe(firstPage);
      await expect.poll(() => rowsIn(children(page)).count()).toBe(10);

      await children(page).getByRole('button', { name: '10', exact: true }).click();
      await page.getByRole('menuitem', { name: '30', exact: true }).click();
      await children(page).getByText('第 1–30 条，共 57 条').waitFor();
      await expect.poll(() => rowsIn(children(page)).count()).toBe(30);
      await quiet(page);
      await shot(page, 'families-dictbiz-paged-zh');

      await searchIn(children(page), 'dictValue').fill('汉族');
      await children(page).getByTestId('crud-search-submit').click();
      await expect.poll(() => rowsIn(children(page)).count()).toBe(1);
      await rowsIn(children(page)).filter({ hasText: '汉族' }).waitFor();
      await children(page).getByTestId('crud-search-reset').click();
      await children(page).getByText('共 57 条').waitFor();
      expect(errors).toEqual([]);
    });

    it('adds a dictionary (code required), finds it, renames it and deletes it', async () => {
      await parents(page).getByTestId('crud-add').click();
      const d = dialog(page);
      await d.getByText('新增业务字典').waitFor();
      await page.getByTestId('crud-dialog-save').click();
      await d.getByText('请输入字典编号').waitFor();
      await field(d, 'code').fill('e2e_family');
      await field(d, 'dictValue').fill('浏览器字典');
      await field(d, 'sort').fill('30');
      await quiet(page);
      await shot(page, 'families-dictbiz-add-zh');
      await page.getByTestId('crud-dialog-save').click();
      await notification(page, '新增成功');
      await d.waitFor({ state: 'hidden' });

      await searchIn(parents(page), 'code').fill('e2e_family');
      await parents(page).getByTestId('crud-search-submit').click();
      await expect.poll(() => rowsIn(parents(page)).count()).toBe(1);
      const mine = rowsIn(parents(page)).filter({ hasText: 'e2e_family' });
      await mine.getByTestId('crud-row-edit').click();
      await expect.poll(() => field(d, 'dictValue').inputValue()).toBe('浏览器字典');
      await field(d, 'dictValue').fill('浏览器字典（已修改）');
      await page.getByTestId('crud-dialog-save').click();
      await notification(page, '修改成功');
      await d.waitFor({ state: 'hidden' });
      await mine.filter({ hasText: '浏览器字典（已修改）' }).waitFor();
      await deleteRow(page, mine);
      await parents(page).getByTestId('crud-search-reset').click();
      await expect.poll(() => rowsIn(parents(page)).count()).toBe(10);
      expect(errors).toEqual([]);
    });

    it('in English: the screen and its add dialog', async () => {
      await setLanguage(page, 'en');
      await rowsIn(parents(page)).filter({ hasText: 'ethnic' }).click();
      await children(page).getByText('Entries of 民族').waitFor();
      await noRawKeys(page);
      await quiet(page);
      await shot(page, 'families-dictbiz-en');
      await children(page).getByTestId('crud-add').click();
      await field(dialog(page), 'dictKey').waitFor();
      await page.getByTestId('crud-dialog-save').click();
      await noRawKeys(page);
      await quiet(page);
      await shot(page, 'families-dictbiz-add-en');
      await page.getByTestId('crud-dialog-cancel').click();
      await setLanguage(page, 'zh');
      expect(errors).toEqual([]);
    });
  });

  it('a teacher sees none of these menu entries', async () => {
    const page = await (await e2e.context()).newPage();
    const teacherErrors = watchErrors(page);
    await signIn(page, TEACHER);
    await waitForMenu(page);
    if ((await page.getByTestId('menu-system').count()) > 0) await page.getByTestId('menu-system').click();
    for (const code of ['data_scope', 'api_scope', 'region', 'client', 'dict_biz'])
      expect(await page.getByTestId(`menu-${code}`).count()).toBe(0);
    expect(teacherErrors).toEqual([]);
  });
});
