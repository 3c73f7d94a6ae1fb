/// <reference lib="dom" />
// Browser globals appear inside page.evaluate callbacks, which run in the page.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../services/core/src/permissions/demo';
import { type E2E, shot, signIn, startE2E, waitForMenu, watchErrors } from './support/app';
import { dialog, field, notification, quiet, rowWith, rows, table } from './support/crud';

const TENANT = '100001';
const ADMIN = { tenant: TENANT, account: 'admin', password: DEMO_PASSWORD };
const TEACHER = { tenant: TENANT, account: 'teacher1', password: DEMO_PASSWORD };
const POSTS = '/system/post/index';
const BULK = 13; // with the 8 seeded posts: 21, three pages of 10

/** Waits until the table shows exactly `n` rows and has stopped loading. */
async function expectRows(page: Page, n: number) {
  await expect.poll(() => rows(page).count()).toBe(n);
}

/**
 * Issue 16: the posts screen on the CRUD kit against the real server — an administrator of
 * the demo kindergarten adds (with validation on blur and the server's refusal of a taken
 * code), edits, views, searches, pages and deletes posts; a teacher has neither the menu nor
 * the screen.
 */
describe('system → posts (CRUD kit)', () => {
  let e2e: E2E;
  let admin: Page;
  let errors: string[];
  /** The administrator's `Blade-Auth`, read from the app's own calls (to seed rows fast). */
  let bearer = '';

  beforeAll(async () => {
    e2e = await startE2E();
    admin = await (await e2e.context()).newPage();
    errors = watchErrors(admin);
    admin.on('request', (r) => {
      const value = r.headers()['blade-auth'];
      if (value) bearer = value;
    });
    await signIn(admin, ADMIN);
    await waitForMenu(admin);
    // Posts enough for three pages, through the same call the screen uses.
    for (let i = 1; i <= BULK; i += 1) {
      const code = `bulk_${String(i).padStart(2, '0')}`;
      const r = await fetch(`${e2e.server.url}/api/blade-system/post/submit`, {
        method: 'POST',
        headers: {
          Authorization: `Basic ${Buffer.from('saber:saber_secret').toString('base64')}`,
          'Blade-Auth': bearer,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({ category: 4, postCode: code, postName: `批量岗位${i}`, sort: 100 + i }),
      });
      expect(r.status, await r.text()).toBe(200);
    }
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it('lists the posts with the menu’s title, paged by 10 (spec §9)', async () => {
    await admin.getByTestId('menu-system').click();
    await admin.getByTestId('menu-post').click();
    await admin.waitForURL(`**${POSTS}`);
    await admin.getByTestId('posts-page').waitFor();
    await expectRows(admin, 10);
    await rowWith(admin, '班主任').waitFor();
    expect(await admin.getByTestId('coming-soon').count()).toBe(0);
    await quiet(admin);
    await shot(admin, 'posts-list-zh');

    // Pages 2 and 3 of 21.
    await table(admin).getByRole('button', { name: '2', exact: true }).click();
    await rowWith(admin, 'bulk_03').waitFor();
    await expectRows(admin, 10);
    await table(admin).getByRole('button', { name: '3', exact: true }).click();
    await expectRows(admin, 1);
    await rowWith(admin, 'bulk_13').waitFor();
  });

  it('warns when nothing is selected for deletion', async () => {
    await admin.getByTestId('crud-batch-delete').click();
    await notification(admin, '请选择至少一条数据');
  });

  it('adds a post: required fields on blur, the server’s refusal of a taken code, then success', async () => {
    await admin.getByTestId('crud-add').click();
    const d = dialog(admin);
    await field(d, 'postName').focus();
    await field(d, 'postName').blur();
    await d.getByText('请输入岗位名称').waitFor();
    await field(d, 'postCode').focus();
    await field(d, 'postCode').blur();
    await d.getByText('请输入岗位编号').waitFor();
    await d.getByText('新增岗位').waitFor();
    await quiet(admin);
    await shot(admin, 'posts-add-zh');

    // A code another post has: the server says so and the dialog stays.
    await field(d, 'postCode').fill('head_teacher');
    await field(d, 'postName').fill('测试岗位');
    await admin.getByTestId('crud-dialog-save').click();
    await notification(admin, '岗位编号已存在');
    expect(await d.isVisible()).toBe(true);

    await field(d, 'postCode').fill('e2e_post');
    await field(d, 'category').click();
    await admin.getByRole('option', { name: '中层' }).click();
    await field(d, 'sort').fill('7');
    await field(d, 'remark').fill('由浏览器测试创建');
    await admin.getByTestId('crud-dialog-save').click();
    await notification(admin, '新增成功');
    await d.waitFor({ state: 'hidden' });
  });

  it('searches by name and by category, and resets', async () => {
    await field(admin.getByTestId('crud-search'), 'postName').fill('测试');
    await admin.getByTestId('crud-search-submit').click();
    await expectRows(admin, 1);
    const row = rowWith(admin, 'e2e_post');
    await row.waitFor();
    expect(await row.textContent()).toContain('中层');

    await admin.getByTestId('crud-search-reset').click();
    await expectRows(admin, 10);
    await field(admin.getByTestId('crud-search'), 'category').click();
    await admin.getByRole('option', { name: '其他' }).click();
    await admin.getByTestId('crud-search-submit').click();
    await expect.poll(() => rowWith(admin, 'bulk_').count()).toBe(10);
    await admin.getByTestId('crud-search-reset').click();
    await expectRows(admin, 10);
  });

  it('edits a post (its code stays) and views it read-only', async () => {
    await field(admin.getByTestId('crud-search'), 'postCode').fill('e2e_post');
    await admin.getByTestId('crud-search-submit').click();
    await expectRows(admin, 1);
    await rowWith(admin, 'e2e_post').getByTestId('crud-row-edit').click();
    const d = dialog(admin);
    await expect.poll(() => field(d, 'postName').inputValue()).toBe('测试岗位');
    expect(await field(d, 'postCode').getAttribute('readonly')).not.toBeNull();
    await field(d, 'postName').fill('');
    await field(d, 'postName').blur();
    await d.getByText('请输入岗位名称').waitFor();
    await field(d, 'postName').fill('测试岗位（已修改）');
    await admin.getByTestId('crud-dialog-save').click();
    await notification(admin, '修改成功');
    await d.waitFor({ state: 'hidden' });
    await rowWith(admin, '测试岗位（已修改）').waitFor();

    await rowWith(admin, 'e2e_post').getByTestId('crud-row-view').click();
    await expect.poll(() => field(d, 'remark').inputValue()).toBe('由浏览器测试创建');
    expect(await field(d, 'postName').getAttribute('readonly')).not.toBeNull();
    expect(await admin.getByTestId('crud-dialog-save').count()).toBe(0);
    await admin.getByTestId('crud-dialog-cancel').click();
    await d.waitFor({ state: 'hidden' });
  });

  it('deletes selected posts after confirming', async () => {
    await admin.getByTestId('crud-search-reset').click();
    await field(admin.getByTestId('crud-search'), 'postName').fill('批量岗位1');
    await admin.getByTestId('crud-search-submit').click();
    // 批量岗位1, 10, 11, 12, 13
    await expectRows(admin, 5);
    const boxes = rows(admin).locator('input[type="checkbox"]');
    await boxes.nth(0).check();
    await boxes.nth(1).check();
    await admin.getByTestId('crud-selected').waitFor();
    await admin.getByTestId('crud-batch-delete').click();
    await dialog(admin).getByText('确定将选择数据删除？').waitFor();
    await admin.getByTestId('crud-confirm-delete').click();
    await notification(admin, '删除成功');
    await expectRows(admin, 3);

    // One row by its own button.
    await rows(admin).first().getByTestId('crud-row-delete').click();
    await admin.getByTestId('crud-confirm-delete').click();
    await expectRows(admin, 2);
    expect(errors).toEqual([]);
  });

  it('speaks English: the list and the add dialog', async () => {
    await admin.getByTestId('crud-search-reset').click();
    await admin.getByTestId('language-menu').click();
    await admin.getByTestId('language-en').click();
    await table(admin).getByText('Post name').waitFor();
    await expectRows(admin, 10);
    await quiet(admin);
    await shot(admin, 'posts-list-en');
    await admin.getByTestId('crud-add').click();
    const d = dialog(admin);
    await field(d, 'postName').focus();
    await field(d, 'postName').blur();
    await d.getByText('Please enter the post name').waitFor();
    await d.getByText('Add post').waitFor();
    expect(await field(d, 'postCode').getAttribute('placeholder')).toBe('Enter post code');
    await quiet(admin);
    await shot(admin, 'posts-add-en');
    await admin.getByTestId('crud-dialog-cancel').click();
    await admin.getByTestId('crud-batch-delete').click();
    await notification(admin, 'Please select at least one row');
    expect(errors).toEqual([]);
  });

  it('shows a teacher neither the menu nor the screen', async () => {
    const context = await e2e.context();
    const page = await context.newPage();
    await signIn(page, TEACHER);
    await waitForMenu(page);
    await page.getByTestId('menu-lesson').waitFor();
    expect(await page.getByTestId('menu-post').count()).toBe(0);
    expect(await page.getByTestId('menu-system').count()).toBe(0);
    await page.goto(POSTS);
    await page.waitForURL(/\/(404|403)$/);
    expect(await page.getByTestId('crud-add').count()).toBe(0);
    await context.close();
  });
});
