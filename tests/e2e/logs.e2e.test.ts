/// <reference lib="dom" />
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../services/core/src/permissions/demo';
import { ADMIN, type E2E, signIn, startE2E, waitForMenu, watchErrors } from './support/app';
import { dialog, field, openMenu, quiet, rowWith, rows, setLanguage } from './support/crud';

const TEACHER = { tenant: '100001', account: 'teacher1', password: DEMO_PASSWORD };
const SAMPLE = '这是测试页制造的示例错误';

async function confirmModal(page: Page) {
  await page
    .getByRole('dialog')
    .getByRole('button', { name: /确定|Confirm/ })
    .click();
}

/**
 * Issue 17's logs as their users meet them: a teacher's browser error is uploaded from the
 * error-log dialog (confirmed → 日志上传成功, the badge clears), and the platform's
 * administrator finds it in 错误日志 with its stack; the API log shows the sign-ins.
 */
describe('logs: the client error log reaches the platform administrator’s error log', () => {
  let e2e: E2E;
  let errors: string[];

  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it('a teacher’s front-end error uploads from the error-log dialog and clears locally', async () => {
    const page = await (await e2e.context()).newPage();
    errors = watchErrors(page);
    await signIn(page, TEACHER);
    await waitForMenu(page);
    await page.goto('/test/index');
    await page.getByTestId('test-throw').click();
    await expect.poll(() => page.getByTestId('error-log-badge').textContent()).toContain('1');
    await page.getByTestId('error-log-open').click();
    await page.getByTestId('error-log-dialog').getByText(SAMPLE, { exact: true }).waitFor();
    await page.screenshot({ path: '/tmp/hD-error-dialog-zh.png' });
    const uploaded = page.waitForResponse('**/api/blade-log/error/upload');
    await page.getByTestId('error-log-upload').click();
    await confirmModal(page);
    const response = await uploaded;
    expect(response.status()).toBe(200);
    expect(response.request().postDataJSON().logs).toEqual([
      expect.objectContaining({ type: 'error', message: SAMPLE }),
    ]);
    await page.getByText('日志上传成功').waitFor();
    await page.getByTestId('error-log-dialog').getByText('一切正常，没有错误记录').waitFor();
    await page.screenshot({ path: '/tmp/hD-error-uploaded-zh.png' });
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('sprout-error-log') ?? '{}').content)).toEqual([]);
    await expect.poll(() => page.getByTestId('error-log-badge').textContent()).not.toContain('1');
    // The one error was made on purpose.
    expect(errors.filter((e) => !e.includes(SAMPLE))).toEqual([]);
    await page.context().close();
  });

  it('the platform administrator finds it in 错误日志 with its stack, and reads the API log, in both languages', async () => {
    const page = await (await e2e.context()).newPage();
    errors = watchErrors(page);
    await signIn(page, ADMIN);
    await waitForMenu(page);
    await openMenu(page, 'log_error', '/monitor/log/error/index', 'log-error-page', 'log');
    const entry = rowWith(page, SAMPLE);
    await entry.waitFor();
    await expect.poll(() => entry.textContent()).toContain('teacher1');
    await expect.poll(() => entry.textContent()).toContain('100001');
    await quiet(page);
    await page.screenshot({ path: '/tmp/hD-error-list-zh.png' });
    await entry.getByTestId('crud-row-view').click();
    await expect.poll(() => field(dialog(page), 'message').inputValue()).toBe(SAMPLE);
    await expect.poll(() => field(dialog(page), 'stackTrace').inputValue()).toContain('Error');
    expect(await field(dialog(page), 'createBy').inputValue()).toBe('teacher1');
    await page.screenshot({ path: '/tmp/hD-error-view-zh.png' });
    await page.getByTestId('crud-dialog-cancel').click();

    // Filtered by user: only the teacher's entries.
    await page.getByTestId('crud-search').getByTestId('crud-field-createBy').fill('nobody');
    await page.getByTestId('crud-search-submit').click();
    await expect.poll(() => rows(page).count()).toBe(0);
    await page.getByTestId('crud-search-reset').click();
    await expect.poll(() => rows(page).count()).toBeGreaterThan(0);

    await openMenu(page, 'log_api', '/monitor/log/api/index', 'log-api-page', 'log');
    await rowWith(page, '/api/blade-auth/oauth/token').first().waitFor();
    await page.screenshot({ path: '/tmp/hD-api-list-zh.png' });

    await setLanguage(page, 'en');
    await expect.poll(() => page.getByTestId('log-api-page').textContent()).toContain('Time taken (ms)');
    await quiet(page);
    await page.screenshot({ path: '/tmp/hD-api-list-en.png' });
    await rowWith(page, '/api/blade-auth/oauth/token').first().getByTestId('crud-row-view').click();
    await expect.poll(() => field(dialog(page), 'params').inputValue()).toContain('******');
    await page.screenshot({ path: '/tmp/hD-api-view-en.png' });
    await page.getByTestId('crud-dialog-cancel').click();

    await openMenu(page, 'log_error', '/monitor/log/error/index', 'log-error-page', 'log');
    await rowWith(page, SAMPLE).getByTestId('crud-row-view').click();
    await expect.poll(() => field(dialog(page), 'stackTrace').inputValue()).toContain('Error');
    await page.screenshot({ path: '/tmp/hD-error-view-en.png' });
    await page.getByTestId('crud-dialog-cancel').click();

    await openMenu(page, 'log_usual', '/monitor/log/usual/index', 'log-usual-page', 'log');
    await rowWith(page, 'sign-in').first().waitFor();
    await page.screenshot({ path: '/tmp/hD-usual-list-en.png' });

    // 任务队列: each queue's depth by its name; embedded, the screen says why there is no board.
    await openMenu(page, 'monitor_queues', '/monitor/log/queues/index', 'queues-page', 'log');
    await page.getByTestId('queue-records.export').getByText('Record exports (Word / Excel bundles)').waitFor();
    await page
      .getByTestId('queues-embedded')
      .getByText(/Embedded mode/)
      .waitFor();
    expect(await page.getByTestId('queues-open-board').count()).toBe(0);
    await page.screenshot({ path: '/tmp/hD-queues-en.png' });
    await setLanguage(page, 'zh');
    await page.getByTestId('queue-flow-timer').getByText('流程定时器').waitFor();
    await page
      .getByTestId('queues-embedded')
      .getByText(/内嵌模式/)
      .waitFor();
    await page.screenshot({ path: '/tmp/hD-queues-zh.png' });
    // On a phone: a card per queue with its counts, nothing wider than the screen.
    const desk = page.viewportSize();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId('queues-cards').getByTestId('queue-flow-timer').getByText('流程定时器').waitFor();
    expect(await page.getByTestId('queues-table').count()).toBe(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: '/tmp/hD-queues-phone-zh.png' });
    if (desk) await page.setViewportSize(desk);
    expect(errors).toEqual([]);
  });
});
