/// <reference lib="dom" />
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../services/core/src/permissions/demo';
import { type E2E, shot, signIn, startE2E, waitForMenu, watchErrors } from './support/app';
import { dialog, field, notification, quiet, rowsIn } from './support/crud';

const ADMIN = { tenant: '100001', account: 'admin', password: DEMO_PASSWORD };
const PLATFORM = { tenant: '000000', account: 'admin', password: 'admin' };

const parents = (page: Page) => page.getByTestId('crud-parents');
const children = (page: Page) => page.getByTestId('crud-children');

async function english(page: Page) {
  await page.getByTestId('language-menu').click();
  await page.getByTestId('language-en').click();
}

/**
 * The dictionary, region and client screens on the CRUD kit against the real server: a
 * kindergarten's administrator keeps its business dictionaries (the seeded lookups sealed) in
 * both of the spec's layouts; the platform's administrator browses the regions' tree and adds
 * a client whose secret is shown once.
 */
describe('system → dictionaries, regions, clients (CRUD kit)', () => {
  let e2e: E2E;
  let admin: Page;
  let platform: Page;
  let errors: string[];

  beforeAll(async () => {
    e2e = await startE2E();
    admin = await (await e2e.context()).newPage();
    errors = watchErrors(admin);
    await signIn(admin, ADMIN);
    await waitForMenu(admin);
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it('shows the business dictionaries: the seeded lookups (and the notices’ categories), sealed, with the chosen one’s entries beside them', async () => {
    await admin.getByTestId('menu-system').click();
    await admin.getByTestId('menu-dict_biz').click();
    await admin.getByTestId('dictbiz-page').waitFor();
    expect(await admin.getByTestId('coming-soon').count()).toBe(0);
    expect(await admin.getByTestId('dictbiz-page').locator('[data-layout="horizontal"]').count()).toBe(1);
    await expect.poll(() => rowsIn(parents(admin)).count()).toBe(10);

    const ethnic = rowsIn(parents(admin)).filter({ hasText: 'ethnic' });
    await ethnic.click();
    await expect.poll(() => ethnic.getAttribute('data-chosen')).toBe('true');
    await children(admin).getByText('民族 的字典项').waitFor();
    await children(admin).getByText('共 57 条').waitFor();
    await rowsIn(children(admin)).filter({ hasText: '汉族' }).waitFor();
    // Sealed: no edit or delete, for the dictionary and its entries.
    expect(await ethnic.getAttribute('data-sealed')).toBe('true');
    expect(await ethnic.getByTestId('crud-row-edit').count()).toBe(0);
    expect(await ethnic.getByTestId('crud-row-delete').count()).toBe(0);
    await ethnic.getByTestId('crud-row-view').waitFor();
    expect(await children(admin).getByTestId('crud-row-edit').count()).toBe(0);
    expect(await children(admin).getByTestId('crud-row-delete').count()).toBe(0);
    await quiet(admin);
    await shot(admin, 'dict-horizontal-zh');
  });

  it('adds a dictionary and an entry under it (code and parent from the dictionary), edits and deletes them', async () => {
    await parents(admin).getByTestId('crud-add').click();
    const d = dialog(admin);
    await d.getByText('新增业务字典').waitFor();
    await field(d, 'code').focus();
    await field(d, 'code').blur();
    await d.getByText('请输入字典编号').waitFor();
    await field(d, 'code').fill('e2e_dict');
    await field(d, 'dictValue').fill('测试字典');
    await field(d, 'sort').fill('20');
    await admin.getByTestId('crud-dialog-save').click();
    await notification(admin, '新增成功');
    await d.waitFor({ state: 'hidden' });

    const mine = rowsIn(parents(admin)).filter({ hasText: 'e2e_dict' });
    await mine.click();
    await children(admin).getByText('测试字典 的字典项').waitFor();
    await expect.poll(() => rowsIn(children(admin)).count()).toBe(0);
    await children(admin).getByTestId('crud-add').click();
    await d.getByText('新增业务字典项').waitFor();
    expect(await field(d, 'code').inputValue()).toBe('e2e_dict');
    expect(await field(d, 'code').getAttribute('readonly')).not.toBeNull();
    expect(await field(d, 'parentId').inputValue()).toBe('测试字典');
    await field(d, 'dictValue').fill('选项一');
    await admin.getByTestId('crud-dialog-save').click();
    await d.getByText('请输入字典键值').waitFor();
    await field(d, 'dictKey').fill('1');
    await admin.getByTestId('crud-dialog-save').click();
    await notification(admin, '新增成功');
    await d.waitFor({ state: 'hidden' });
    await rowsIn(children(admin)).filter({ hasText: '选项一' }).waitFor();

    await rowsIn(children(admin)).first().getByTestId('crud-row-edit').click();
    await expect.poll(() => field(d, 'dictValue').inputValue()).toBe('选项一');
    await field(d, 'dictValue').fill('选项一（已修改）');
    await admin.getByTestId('crud-dialog-save').click();
    await notification(admin, '修改成功');
    await rowsIn(children(admin)).filter({ hasText: '选项一（已修改）' }).waitFor();

    await rowsIn(children(admin)).first().getByTestId('crud-row-delete').click();
    await admin.getByTestId('crud-confirm-delete').click();
    await expect.poll(() => rowsIn(children(admin)).count()).toBe(0);
    await mine.getByTestId('crud-row-delete').click();
    await admin.getByTestId('crud-confirm-delete').click();
    await expect.poll(() => rowsIn(parents(admin)).count()).toBe(10);
    expect(errors).toEqual([]);
  });

  it('opens the vertical page: the dictionaries above, the entries below', async () => {
    await admin.goto('/dict-vertical/index');
    await admin.getByTestId('dictbiz-vertical-page').waitFor();
    expect(await admin.locator('[data-layout="vertical"]').count()).toBe(1);
    await expect.poll(() => rowsIn(parents(admin)).count()).toBe(10);
    await rowsIn(parents(admin)).filter({ hasText: 'yes_no' }).click();
    await expect.poll(() => rowsIn(children(admin)).count()).toBe(2);
    expect(await admin.getByTestId('coming-soon').count()).toBe(0);
    await quiet(admin);
    await shot(admin, 'dict-vertical-zh');
  });

  it('speaks English on the horizontal page', async () => {
    await admin.goto('/dict-horizontal/index');
    await admin.getByTestId('dictbiz-page').waitFor();
    await english(admin);
    await rowsIn(parents(admin)).filter({ hasText: 'ethnic' }).click();
    await children(admin).getByText('Entries of 民族').waitFor();
    await quiet(admin);
    await shot(admin, 'dict-horizontal-en');
    expect(errors).toEqual([]);
  });

  it('the platform: regions as a lazy tree, 广东省 expands to 广州市', async () => {
    platform = await (await e2e.context()).newPage();
    errors = watchErrors(platform);
    await signIn(platform, PLATFORM);
    await waitForMenu(platform);
    await platform.getByTestId('menu-system').click();
    await platform.getByTestId('menu-region').click();
    await platform.getByTestId('region-page').waitFor();
    const top = platform.locator('tr[data-depth="0"]');
    await expect.poll(() => top.count()).toBe(34);
    const guangdong = top.filter({ hasText: '广东省' });
    await guangdong.getByTestId('crud-tree-toggle').click();
    await expect.poll(() => guangdong.getAttribute('data-expanded')).toBe('true');
    await platform.locator('tr[data-depth="1"]').filter({ hasText: '广州市' }).waitFor();
    await guangdong.scrollIntoViewIfNeeded();
    await quiet(platform);
    await shot(platform, 'regions-expanded-zh');

    // A region under 广州市 (its code as the parent), renamed, then deleted.
    const guangzhou = platform.locator('tr[data-depth="1"]').filter({ hasText: '广州市' });
    await guangzhou.getByTestId('crud-row-add').click();
    const d = platform.getByRole('dialog');
    await d.getByText('新增行政区划').waitFor();
    expect(await field(d, 'parentCode').inputValue()).toBe('440100');
    await field(d, 'code').fill('440199');
    await field(d, 'name').fill('测试区');
    await platform.getByTestId('crud-dialog-save').click();
    await notification(platform, '新增成功');
    await d.waitFor({ state: 'hidden' });
    if ((await guangzhou.getAttribute('data-expanded')) !== 'true')
      await guangzhou.getByTestId('crud-tree-toggle').click();
    const mine = platform.locator('tr[data-depth="2"]').filter({ hasText: '440199' });
    await mine.getByTestId('crud-row-edit').click();
    await expect.poll(() => field(d, 'name').inputValue()).toBe('测试区');
    expect(await field(d, 'code').getAttribute('readonly')).not.toBeNull();
    await field(d, 'name').fill('测试区（已修改）');
    await platform.getByTestId('crud-dialog-save').click();
    await notification(platform, '修改成功');
    await mine.filter({ hasText: '测试区（已修改）' }).waitFor();
    await mine.getByTestId('crud-row-delete').click();
    await platform.getByTestId('crud-confirm-delete').click();
    await expect.poll(() => mine.count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('the platform: its system dictionaries open on their menu', async () => {
    await platform.getByTestId('menu-dict').click();
    await platform.getByTestId('dict-page').waitFor();
    await platform.getByTestId('dict-page').locator('[data-layout="horizontal"]').waitFor();
    expect(await platform.getByTestId('coming-soon').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('the platform: adds a client, its secret shown once', async () => {
    await platform.getByTestId('menu-client').click();
    await platform.getByTestId('client-page').waitFor();
    await platform.getByTestId('crud-table').locator('tbody tr').filter({ hasText: 'saber' }).waitFor();
    await platform.getByTestId('crud-add').click();
    const d = dialog(platform);
    await field(d, 'clientId').fill('e2e_app');
    await d.getByText('refresh_token').first().waitFor();
    await quiet(platform);
    await shot(platform, 'clients-add-zh');
    await platform.getByTestId('crud-dialog-save').click();
    const secret = platform.getByTestId('crud-secret-value');
    await secret.waitFor();
    expect((await secret.textContent())?.trim()).toMatch(/^\S{32}$/);
    await platform.getByText('密钥只显示这一次').waitFor();
    await quiet(platform);
    await shot(platform, 'clients-secret-zh');
    await platform.getByTestId('crud-secret-close').click();
    await secret.waitFor({ state: 'hidden' });

    // Never again: the detail masks it.
    const row = platform.getByTestId('crud-table').locator('tbody tr').filter({ hasText: 'e2e_app' });
    await row.getByTestId('crud-row-edit').click();
    await expect.poll(() => field(d, 'clientSecret').inputValue()).toBe('******');
    await platform.getByTestId('crud-dialog-cancel').click();
    await d.waitFor({ state: 'hidden' });
    expect(errors).toEqual([]);
  });

  it('the platform in English: a reset secret, and the regions', async () => {
    await english(platform);
    const row = platform.getByTestId('crud-table').locator('tbody tr').filter({ hasText: 'e2e_app' });
    await row.getByTestId('crud-row-reset-secret').click();
    await platform.getByTestId('crud-confirm-action').click();
    await platform.getByText('This secret is shown only once').waitFor();
    await quiet(platform);
    await shot(platform, 'clients-secret-en');
    await platform.getByTestId('crud-secret-close').click();

    await platform.getByTestId('menu-region').click();
    await platform.getByTestId('region-page').waitFor();
    const guangdong = platform.locator('tr[data-depth="0"]').filter({ hasText: '广东省' });
    await expect.poll(() => guangdong.getAttribute('data-expanded')).not.toBeNull();
    if ((await guangdong.getAttribute('data-expanded')) !== 'true')
      await guangdong.getByTestId('crud-tree-toggle').click();
    await platform.locator('tr[data-depth="1"]').filter({ hasText: '广州市' }).waitFor();
    await quiet(platform);
    await shot(platform, 'regions-expanded-en');
    expect(errors).toEqual([]);
  });
});
