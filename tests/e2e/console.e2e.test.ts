/// <reference lib="dom" />
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../services/core/src/permissions/demo';
import { ADMIN as PLATFORM, type E2E, shot, signIn, startE2E, waitForMenu, watchErrors } from './support/app';
import { dialog, field, notification, openMenu, quiet, rowWith, rows, setLanguage, table } from './support/crud';

const KINDERGARTEN = { tenant: '100001', account: 'admin', password: DEMO_PASSWORD };

const searchField = (page: Page, prop: string) => field(page.getByTestId('crud-search'), prop);

/**
 * Issue 16: more console screens on the CRUD kit against the real server. The platform's
 * administrator opens tenants and top menus; the demo kindergarten's administrator adds, edits
 * and deletes a class, adds and deletes a department under the root, searches the children and
 * reads the security log.
 */
describe('console screens (CRUD kit)', () => {
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

    it('lists the tenants (the demo kindergarten among them), in Chinese and English', async () => {
      await openMenu(page, 'tenant', '/system/tenant/index', 'tenants-page');
      await rowWith(page, '100001').waitFor();
      await table(page).getByText('租户名称').waitFor();
      await quiet(page);
      await shot(page, 'console-tenants-zh');
      await page.getByTestId('crud-add').click();
      await dialog(page).getByText('新增租户').waitFor();
      expect(await field(dialog(page), 'accountNumber').inputValue()).toBe('-1');
      await page.getByTestId('crud-dialog-cancel').click();

      // An edit names the tenant by its tenantId; the quota and expiry go with it.
      await rowWith(page, '100001').getByTestId('crud-row-edit').click();
      await expect.poll(() => field(dialog(page), 'tenantName').inputValue()).toBe('萌芽实验幼儿园');
      await field(dialog(page), 'linkman').fill('园长');
      await field(dialog(page), 'expireTime').fill('2099-12-31');
      await page.getByTestId('crud-dialog-save').click();
      await notification(page, '修改成功');
      await rowWith(page, '2099-12-31 00:00:00').waitFor();

      await setLanguage(page, 'en');
      await table(page).getByText('Tenant name').waitFor();
      await rowWith(page, '100001').waitFor();
      await quiet(page);
      await shot(page, 'console-tenants-en');
      await setLanguage(page, 'zh');
      await table(page).getByText('租户名称').waitFor();
    });

    it('lists the top menus', async () => {
      await openMenu(page, 'topmenu', '/system/topmenu/index', 'topmenus-page');
      await table(page).getByText('菜单编号').waitFor();
      await page.getByTestId('crud-add').waitFor();
      await quiet(page);
      await shot(page, 'console-topmenus-zh');
    });

    it('lists the data and API scopes of a menu', async () => {
      await openMenu(page, 'data_scope', '/authority/datascope/index', 'data-scopes-page');
      await expect.poll(() => rows(page).count()).toBeGreaterThan(0);
      await searchField(page, 'menuId').click();
      await page.getByRole('option', { name: '幼儿信息' }).click();
      await page.getByTestId('crud-search-submit').click();
      await expect
        .poll(async () => (await rows(page).allTextContents()).every((t) => t.includes('student')))
        .toBe(true);
      await quiet(page);
      await shot(page, 'console-data-scopes-zh');

      await openMenu(page, 'api_scope', '/authority/apiscope/index', 'api-scopes-page');
      await expect.poll(() => rows(page).count()).toBeGreaterThan(0);
      await quiet(page);
      await shot(page, 'console-api-scopes-zh');
      expect(errors).toEqual([]);
    });
  });

  describe('the kindergarten’s administrator', () => {
    let page: Page;
    beforeAll(async () => {
      page = await (await e2e.context()).newPage();
      errors = watchErrors(page);
      await signIn(page, KINDERGARTEN);
      await waitForMenu(page);
    });

    it('adds a class (checked on blur, the department from the tree), edits it and deletes it', async () => {
      await openMenu(page, 'clazz', '/clazz/classinfo/index', 'classes-page', 'class_center');
      await expect.poll(() => rows(page).count()).toBeGreaterThan(0);
      await quiet(page);
      await shot(page, 'console-classes-zh');

      await page.getByTestId('crud-add').click();
      const d = dialog(page);
      await d.getByText('新增班级').waitFor();
      await field(d, 'schoolYear').fill('2030');
      await field(d, 'schoolYear').blur();
      await d.getByText('格式为 2025-2026（前后相差一年）').waitFor();
      await field(d, 'name').fill('浏览器测试班');
      await field(d, 'schoolYear').fill('2030-2031');
      await field(d, 'deptId').click();
      await page.getByRole('option').first().click();
      await field(d, 'room').fill('E2E-1');
      await field(d, 'capacity').fill('20');
      await quiet(page);
      await shot(page, 'console-classes-add-zh');
      await page.getByTestId('crud-dialog-save').click();
      await notification(page, '新增成功');
      await d.waitFor({ state: 'hidden' });

      await searchField(page, 'name').fill('浏览器测试班');
      await page.getByTestId('crud-search-submit').click();
      await expect.poll(() => rows(page).count()).toBe(1);
      await rowWith(page, '浏览器测试班').getByTestId('crud-row-edit').click();
      await expect.poll(() => field(d, 'name').inputValue()).toBe('浏览器测试班');
      await field(d, 'room').fill('E2E-2');
      await page.getByTestId('crud-dialog-save').click();
      await notification(page, '修改成功');
      await d.waitFor({ state: 'hidden' });
      await rowWith(page, 'E2E-2').waitFor();

      await rowWith(page, '浏览器测试班').getByTestId('crud-row-delete').click();
      await page.getByTestId('crud-confirm-delete').click();
      await notification(page, '删除成功');
      await expect.poll(() => rows(page).count()).toBe(0);

      await page.getByTestId('crud-search-reset').click();
      await expect.poll(() => rows(page).count()).toBeGreaterThan(0);

      // The teachers the form does not show stay as they were.
      const demo = rowWith(page, '小一班');
      expect(await demo.textContent()).toContain('王芳');
      await demo.getByTestId('crud-row-edit').click();
      await expect.poll(() => field(d, 'name').inputValue()).toBe('小一班');
      await field(d, 'remark').fill('编辑后班主任不变');
      await page.getByTestId('crud-dialog-save').click();
      await notification(page, '修改成功');
      await d.waitFor({ state: 'hidden' });
      await rowWith(page, '小一班').filter({ hasText: '王芳' }).waitFor();
      await setLanguage(page, 'en');
      await table(page).getByText('Class name').waitFor();
      await quiet(page);
      await shot(page, 'console-classes-en');
      await setLanguage(page, 'zh');
      await table(page).getByText('班级名称').waitFor();
    });

    it('opens the departments, expands the root, adds a department under it and deletes it', async () => {
      await openMenu(page, 'dept', '/system/dept/index', 'dept-page');
      const root = page.locator('tr[data-depth="0"]').filter({ hasText: '萌芽实验幼儿园' });
      await root.getByTestId('crud-tree-toggle').click();
      await expect.poll(() => root.getAttribute('data-expanded')).toBe('true');
      await page.locator('tr[data-depth="1"]').filter({ hasText: '托班组' }).waitFor();
      await quiet(page);
      await shot(page, 'console-depts-zh');

      await root.getByTestId('crud-row-add').click();
      const d = dialog(page);
      await d.getByText('新增机构').waitFor();
      await expect.poll(() => field(d, 'parentId').inputValue()).toBe('萌芽实验幼儿园');
      await field(d, 'deptName').fill('浏览器测试组');
      await page.getByTestId('crud-dialog-save').click();
      await notification(page, '新增成功');
      await d.waitFor({ state: 'hidden' });
      const mine = page.locator('tr[data-depth="1"]').filter({ hasText: '浏览器测试组' });
      await mine.getByTestId('crud-row-delete').click();
      await page.getByTestId('crud-confirm-delete').click();
      await notification(page, '删除成功');
      await expect.poll(() => mine.count()).toBe(0);
    });

    it('searches the children by name and by class', async () => {
      await openMenu(page, 'student', '/student/student/index', 'children-page', 'class_center');
      await expect.poll(() => rows(page).count()).toBe(10);
      const name = ((await rows(page).first().locator('td').nth(1).textContent()) ?? '').trim();
      expect(name).not.toBe('');
      await searchField(page, 'name').fill(name);
      await page.getByTestId('crud-search-submit').click();
      await expect.poll(async () => (await rows(page).allTextContents()).every((t) => t.includes(name))).toBe(true);
      await page.getByTestId('crud-search-reset').click();

      await searchField(page, 'classId').click();
      const firstClass = page.getByRole('option').first();
      const className = ((await firstClass.textContent()) ?? '').trim();
      await firstClass.click();
      await page.getByTestId('crud-search-submit').click();
      await expect
        .poll(async () => (await rows(page).allTextContents()).every((t) => t.includes(className)))
        .toBe(true);
      await quiet(page);
      await shot(page, 'console-children-zh');

      // An edit goes through updateStudent, the class select showing the child's class.
      await rows(page).first().getByTestId('crud-row-edit').click();
      const d = dialog(page);
      await expect.poll(() => field(d, 'classId').inputValue()).toBe(className);
      await field(d, 'notes').fill('浏览器测试备注');
      await page.getByTestId('crud-dialog-save').click();
      await notification(page, '修改成功');
      await d.waitFor({ state: 'hidden' });
    });

    it('reads the security log (its own sign-in), with no add, edit or delete', async () => {
      await openMenu(page, 'log_security', '/log/security/index', 'security-log-page', 'log');
      await rowWith(page, '登录').first().waitFor();
      expect(await page.getByTestId('crud-add').count()).toBe(0);
      expect(await page.getByTestId('crud-batch-delete').count()).toBe(0);
      expect(await page.getByTestId('crud-row-delete').count()).toBe(0);
      await searchField(page, 'result').click();
      await page.getByRole('option', { name: '成功' }).click();
      await searchField(page, 'account').fill('admin');
      await page.getByTestId('crud-search-submit').click();
      await expect.poll(async () => (await rows(page).allTextContents()).every((t) => t.includes('成功'))).toBe(true);
      await quiet(page);
      await shot(page, 'console-security-log-zh');
      expect(errors).toEqual([]);
    });
  });
});
