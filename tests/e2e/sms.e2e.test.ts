/// <reference lib="dom" />
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../services/core/src/permissions/demo';
import { type E2E, signIn, startE2E, waitForMenu, watchErrors } from './support/app';
import { dialog, field, openMenu, quiet, rowsIn, setLanguage } from './support/crud';

const ADMIN = { tenant: '100001', account: 'admin', password: DEMO_PASSWORD };

const configs = (page: Page) => page.getByTestId('sms-page').getByTestId('crud-table');
const log = (page: Page) => page.getByTestId('sms-log-page').getByTestId('crud-table');
const snap = async (page: Page, name: string) => {
  await quiet(page);
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.screenshot({ path: `/tmp/hC-${name}.png` });
};

/**
 * 短信配置 against the real server: the demo kindergarten's log configuration is enabled, a
 * test message sent from its row lands in the message log, in Chinese and in English.
 */
describe('resource → SMS (real server)', () => {
  let e2e: E2E;
  let page: Page;
  let errors: string[];

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

  it('an administrator sees the log configuration enabled, sends a test message and finds it in the message log', async () => {
    await openMenu(page, 'sms', '/resource/sms/index', 'sms-page', 'resource');
    const row = rowsIn(configs(page)).filter({ hasText: 'demo-log' });
    await row.filter({ hasText: '启用' }).waitFor();
    await row.filter({ hasText: '内置（写入短信记录）' }).waitFor();
    // Enabled already: no enable button on its row.
    expect(await row.getByTestId('crud-row-enable').count()).toBe(0);
    await snap(page, 'sms-configs-zh');

    await row.getByTestId('crud-row-send').click();
    const d = dialog(page);
    await d.getByText('发送测试短信').first().waitFor();
    await field(d, 'phones').fill('1380000');
    await field(d, 'phones').blur();
    await d.getByText('请输入 11 位手机号，多个以逗号分隔').waitFor();
    await field(d, 'phones').fill('13812345678');
    await snap(page, 'sms-send-zh');
    await page.getByTestId('crud-action-save').click();
    await d.waitFor({ state: 'hidden' });

    await page.getByTestId('sms-tab-log').click();
    const sent = rowsIn(log(page)).filter({ hasText: '13812345678' });
    await sent.filter({ hasText: '成功' }).waitFor();
    await sent.filter({ hasText: '{"code":"1234"}' }).waitFor();
    await snap(page, 'sms-log-zh');
    expect(errors).toEqual([]);
  });

  it('in English: the message log and the configurations', async () => {
    await setLanguage(page, 'en');
    await page.getByText('Message log').first().waitFor();
    await rowsIn(log(page)).filter({ hasText: 'Sent' }).first().waitFor();
    await snap(page, 'sms-log-en');
    await page.getByTestId('sms-tab-config').click();
    const row = rowsIn(configs(page)).filter({ hasText: 'demo-log' });
    await row.filter({ hasText: 'Built-in (message log)' }).waitFor();
    await page.getByTestId('crud-add').click();
    const d = dialog(page);
    await field(d, 'category').click();
    await page.getByRole('option', { name: 'HTTP provider' }).click();
    await field(d, 'endpoint').waitFor();
    await snap(page, 'sms-add-http-en');
    await page.getByTestId('crud-dialog-cancel').click();
    expect(errors).toEqual([]);
  });
});
