/// <reference lib="dom" />
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testPostgresUrl } from '../../services/core/src/testing/services';
import { type E2E, shot, signIn, startE2E, waitForMenu, watchErrors } from './support/app';
import { dialog, field, openMenu, quiet, rowWith, setLanguage } from './support/crud';

/**
 * 数据源管理 (issue 21) against the real server, as the platform administrator: a data source
 * the server cannot reach is refused with the network's reason under its URL, a reachable one
 * is saved (its password never shown again), in Chinese and in English.
 */
describe('system → data sources (real server)', () => {
  let e2e: E2E;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    e2e = await startE2E();
    page = await (await e2e.context()).newPage();
    errors = watchErrors(page);
    await signIn(page);
    await waitForMenu(page);
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it('refuses an unreachable data source with the reason, saves a reachable one, in both languages', async () => {
    await openMenu(page, 'datasource', '/tool/datasource/index', 'datasource-page', 'system');
    await page.getByTestId('crud-add').click();
    const d = dialog(page);
    await field(d, 'name').fill('集团二号库');
    await field(d, 'url').fill('jdbc:postgresql://127.0.0.1:1/nowhere');
    await field(d, 'username').fill('postgres');
    await field(d, 'password').fill('pg-secret');
    await page.getByTestId('crud-dialog-save').click();
    await expect.poll(() => field(d, 'url').getAttribute('aria-invalid')).toBe('true');
    await d
      .getByText(/无法连接数据源：.*ECONNREFUSED/)
      .first()
      .waitFor();
    await quiet(page);
    await shot(page, 'datasource-refused-zh');

    const pg = new URL(await testPostgresUrl());
    await field(d, 'url').fill(`jdbc:postgresql://${pg.hostname}:${pg.port || 5432}/postgres`);
    await field(d, 'username').fill(pg.username || 'postgres');
    await page.getByTestId('crud-dialog-save').click();
    await d.waitFor({ state: 'hidden' });
    await rowWith(page, '集团二号库').waitFor();
    expect(await page.content()).not.toContain('pg-secret');
    await quiet(page);
    await shot(page, 'datasource-list-zh');

    await setLanguage(page, 'en');
    await page.getByText('Driver').first().waitFor();
    await quiet(page);
    await shot(page, 'datasource-list-en');
    await page.getByTestId('crud-add').click();
    await d.getByText('Password (blank keeps it when editing)').first().waitFor();
    await quiet(page);
    await shot(page, 'datasource-add-en');
    await page.getByTestId('crud-dialog-cancel').click();
    await setLanguage(page, 'zh');
    expect(errors).toEqual([]);
  });
});
