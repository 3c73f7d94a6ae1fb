/// <reference lib="dom" />
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../services/core/src/permissions/demo';
import { ADMIN as PLATFORM, type E2E, shot, signIn, startE2E, waitForMenu, watchErrors } from './support/app';
import { dialog, field, notification, quiet, rowWith, rows, setLanguage, table } from './support/crud';

const KINDERGARTEN = { tenant: '100001', account: 'admin', password: DEMO_PASSWORD };
const TEACHER = { tenant: '100001', account: 'teacher1', password: DEMO_PASSWORD };

const searchField = (page: Page, prop: string) => field(page.getByTestId('crud-search'), prop);
/** A node of a check tree by its label. */
const node = (scope: Locator, label: string) =>
  scope.getByTestId('check-tree-node').filter({ has: scope.page().getByText(label, { exact: true }) });

/** Opens a screen through its menu entry (its section first, when folded) and waits for it. */
async function openMenu(page: Page, section: string, code: string, path: string, testId: string) {
  const entry = page.getByTestId(`menu-${code}`);
  if (!(await entry.isVisible())) await page.getByTestId(`menu-${section}`).click();
  await entry.click();
  await page.waitForURL(`**${path}`);
  await page.getByTestId(testId).waitFor();
}

/** Reloads and tells whether the sidebar's lesson section shows "plans to review". */
async function teacherSeesReviews(page: Page): Promise<boolean> {
  await page.reload();
  await waitForMenu(page);
  const mine = page.getByTestId('menu-week_mine');
  if (!(await mine.isVisible())) await page.getByTestId('menu-lesson').click();
  await mine.waitFor();
  return (await page.getByTestId('menu-week_trial').count()) > 0;
}

/**
 * Issue 16: the roles screen (a whole tree on the CRUD kit) and its grant dialog, the top
 * menus' grant dialog. The kindergarten's administrator adds, edits, searches and deletes a
 * role, then grants the teachers' role a menu and takes it back: a teacher signed in beside
 * sees it come and go on the next load. The platform's administrator sets a top menu's menus.
 */
describe('roles and grants', () => {
  let e2e: E2E;

  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(async () => {
    await e2e?.close();
  });

  describe('the kindergarten’s administrator', () => {
    let page: Page;
    let teacher: Page;
    let errors: string[] = [];
    beforeAll(async () => {
      page = await (await e2e.context()).newPage();
      errors = watchErrors(page);
      await signIn(page, KINDERGARTEN);
      await waitForMenu(page);
      teacher = await (await e2e.context()).newPage();
      await signIn(teacher, TEACHER);
      await waitForMenu(teacher);
    });

    it('adds a role under another, edits it, finds it and deletes it', async () => {
      await openMenu(page, 'system', 'role', '/authority/role/index', 'roles-page');
      await rowWith(page, 'teacher').waitFor();
      await quiet(page);
      await shot(page, 'roles-zh');

      await rowWith(page, 'teacher').getByTestId('crud-row-add').click();
      const d = dialog(page);
      await d.getByText('新增角色').waitFor();
      await expect.poll(() => field(d, 'parentId').inputValue()).toBe('教师');
      await field(d, 'roleAlias').fill('9bad');
      await field(d, 'roleAlias').blur();
      await d.getByText('只能包含字母、数字、下划线和连字符，以字母开头').waitFor();
      await field(d, 'roleName').fill('实习教师');
      await field(d, 'roleAlias').fill('intern');
      await page.getByTestId('crud-dialog-save').click();
      await notification(page, '新增成功');
      await d.waitFor({ state: 'hidden' });
      const intern = page.locator('tr[data-depth="1"]').filter({ hasText: 'intern' });
      await intern.waitFor();

      await intern.getByTestId('crud-row-edit').click();
      await expect.poll(() => field(d, 'roleName').inputValue()).toBe('实习教师');
      await field(d, 'roleName').fill('见习教师');
      await page.getByTestId('crud-dialog-save').click();
      await notification(page, '修改成功');
      await d.waitFor({ state: 'hidden' });
      await rowWith(page, '见习教师').waitFor();

      await searchField(page, 'roleName').fill('见习');
      await page.getByTestId('crud-search-submit').click();
      await expect.poll(() => rows(page).count()).toBe(1);
      await rowWith(page, '见习教师').locator('input[type="checkbox"]').check();
      await page.getByTestId('crud-batch-delete').click();
      await page.getByTestId('crud-confirm-delete').click();
      await notification(page, '删除成功');
      await expect.poll(() => rows(page).count()).toBe(0);
      await page.getByTestId('crud-search-reset').click();
      await rowWith(page, 'teacher').waitFor();
    });

    it('asks for a selection before granting', async () => {
      await page.getByTestId('crud-selection-grant').click();
      await notification(page, '请选择至少一条数据');
      await quiet(page);
    });

    it('grants the teachers a menu they lacked and takes it back: a teacher sees it on the next load', async () => {
      expect(await teacherSeesReviews(teacher)).toBe(false);
      const teacherRow = rowWith(page, 'teacher');
      await teacherRow.locator('input[type="checkbox"]').check();
      await page.getByTestId('crud-selection-grant').click();
      const d = page.getByTestId('role-grant-dialog');
      const menus = d.getByTestId('check-tree-menu');
      const reviews = node(menus, '待审核备课');
      const lesson = node(menus, '备课管理');
      // The teachers write plans but review none: the lesson section is half-checked.
      await expect.poll(() => lesson.getAttribute('data-checked')).toBe('mixed');
      await expect.poll(() => reviews.getAttribute('data-checked')).toBe('false');
      await d.getByTestId('check-tab-dataScope').click();
      await d.getByTestId('check-tree-dataScope').waitFor();
      await d.getByTestId('check-tab-menu').click();
      await quiet(page);
      await shot(page, 'roles-grant-zh');
      await reviews.getByTestId('check-tree-box').click();
      await expect.poll(() => reviews.getAttribute('data-checked')).toBe('true');
      await d.getByTestId('check-dialog-save').click();
      await notification(page, '操作成功');
      await d.waitFor({ state: 'hidden' });
      expect(await teacherSeesReviews(teacher)).toBe(true);

      await page.getByTestId('crud-selection-grant').click();
      await expect.poll(() => reviews.getAttribute('data-checked')).toBe('true');
      await reviews.getByTestId('check-tree-box').click();
      await expect.poll(() => reviews.getAttribute('data-checked')).toBe('false');
      await d.getByTestId('check-dialog-save').click();
      await notification(page, '操作成功');
      await d.waitFor({ state: 'hidden' });
      expect(await teacherSeesReviews(teacher)).toBe(false);
    });

    it('shows the roles and the grant dialog in English', async () => {
      await setLanguage(page, 'en');
      await table(page).getByText('Role name').waitFor();
      await quiet(page);
      await shot(page, 'roles-en');
      await page.getByTestId('crud-selection-grant').click();
      const d = page.getByTestId('role-grant-dialog');
      await d.getByText('Grant permissions (1 selected)').waitFor();
      await d.getByTestId('check-tree-menu').waitFor();
      await quiet(page);
      await shot(page, 'roles-grant-en');
      await d.getByTestId('check-dialog-cancel').click();
      await setLanguage(page, 'zh');
      expect(errors).toEqual([]);
    });

    it('a teacher has no roles entry', async () => {
      await teacher.reload();
      await waitForMenu(teacher);
      expect(await teacher.getByTestId('menu-role').count()).toBe(0);
      expect(await teacher.getByTestId('menu-system').count()).toBe(0);
    });
  });

  describe('the platform administrator', () => {
    it('sets the menus a top menu shows', async () => {
      const page = await (await e2e.context()).newPage();
      const errors = watchErrors(page);
      await signIn(page, PLATFORM);
      await waitForMenu(page);
      await openMenu(page, 'system', 'topmenu', '/system/topmenu/index', 'topmenus-page');
      const top = rows(page).first();
      await top.waitFor();
      await top.locator('input[type="checkbox"]').check();
      await page.getByTestId('crud-selection-grant').click();
      const d = page.getByTestId('topmenu-grant-dialog');
      const tree = d.getByTestId('check-tree-menu');
      await tree.waitFor();
      const first = tree.getByTestId('check-tree-node').first();
      const before = await first.getAttribute('data-checked');
      await quiet(page);
      await shot(page, 'topmenus-grant-zh');
      await first.getByTestId('check-tree-box').click();
      await expect.poll(() => first.getAttribute('data-checked')).toBe(before === 'true' ? 'false' : 'true');
      await d.getByTestId('check-dialog-save').click();
      await notification(page, '操作成功');
      await d.waitFor({ state: 'hidden' });
      // Opened again, the dialog shows what was saved.
      await setLanguage(page, 'en');
      await table(page).getByText('Code').waitFor();
      await page.getByTestId('crud-selection-grant').click();
      await expect.poll(() => first.getAttribute('data-checked')).toBe(before === 'true' ? 'false' : 'true');
      await d.getByText('Assign menus (1 selected)').waitFor();
      await quiet(page);
      await shot(page, 'topmenus-grant-en');
      await d.getByTestId('check-dialog-cancel').click();
      expect(errors).toEqual([]);
    });
  });
});
