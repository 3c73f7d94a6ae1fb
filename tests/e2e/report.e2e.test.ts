/// <reference lib="dom" />
import { readFile } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../services/core/src/permissions/demo';
import { type E2E, shot, signIn, startE2E, waitForMenu, watchErrors } from './support/app';
import { setLanguage } from './support/crud';

const ADMIN = { tenant: '100001', account: 'admin', password: DEMO_PASSWORD };
const TEACHER = { tenant: '100001', account: 'teacher1', password: DEMO_PASSWORD };
const QUERY = `select class_name, count(*) as observations
from observations
where ($1::date is null or record_date >= $1) and ($2::date is null or record_date <= $2)
group by class_name order by class_name`;

/** Picks `option` of the Mantine select whose input has `testId`. */
async function pick(page: Page, testId: string, option: string) {
  await page.getByTestId(testId).click({ force: true });
  await page.getByRole('option', { name: option, exact: true }).click();
}

/**
 * Reports (issue 21), one journey: an administrator builds a report of observations per class
 * with a bar chart in the designer (its live preview), runs it for a date range and downloads
 * the .xlsx; a teacher cannot open the designer.
 */
describe('reports: design, run, chart, Excel', () => {
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

  it('an administrator builds, runs and exports a report; a teacher cannot design one', async () => {
    await page.goto('/report/reportlist/index');
    await page.getByTestId('report-list-page').waitFor();
    // The shipped reports are there.
    await expect.poll(() => page.locator('tr[data-name="五大领域覆盖（按班级）"]').count()).toBe(1);
    await page.getByTestId('report-add').click();
    await page.getByTestId('report-design-page').waitFor();
    await page.getByTestId('report-name').fill('各班观察记录');
    const params = [
      ['from', '开始日期'],
      ['to', '结束日期'],
    ] as const;
    for (const [i, [name, label]] of params.entries()) {
      await page.getByTestId('report-add-param').click();
      const row = page.getByTestId(`report-param-${i}`);
      await row.getByTestId('report-param-name').fill(name);
      await row.getByTestId('report-param-label').fill(label);
    }
    await page.getByTestId('report-query').fill(QUERY);
    // The live preview answers with the query's columns and rows.
    await expect.poll(() => page.getByTestId('report-table').locator('tbody tr').count()).toBeGreaterThan(0);
    // Its columns come titled in the user's language, not as field codes; a title can be changed.
    expect(await page.getByTestId('report-column-label-class_name').inputValue()).toBe('班级');
    expect(await page.getByTestId('report-column-label-observations').inputValue()).toBe('观察记录数');
    await page.getByTestId('report-column-label-observations').fill('观察次数');
    await pick(page, 'report-chart-type', '柱状图');
    await pick(page, 'report-chart-x', '班级');
    await pick(page, 'report-chart-y', '观察次数');
    await page.keyboard.press('Escape');
    await page.getByTestId('report-chart').waitFor();
    await shot(page, 'report-designer');
    await page.getByTestId('report-save').click();
    await page.getByTestId('report-list-page').waitFor();

    const row = page.locator('tr[data-name="各班观察记录"]');
    await row.getByTestId('report-run').click();
    await page.getByTestId('report-run-page').waitFor();
    await page.getByTestId('report-value-from').fill('2000-01-01');
    await page.getByTestId('report-value-to').fill('2999-12-31');
    await page.getByTestId('report-run-button').click();
    await expect.poll(() => page.getByTestId('report-table').locator('tbody tr').count()).toBeGreaterThan(0);
    expect(await page.getByTestId('report-chart').getAttribute('data-chart')).toBe('bar');
    const shown = await page
      .getByTestId('report-table')
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')));
    expect(await page.getByTestId('report-table').locator('thead th').allTextContents()).toEqual(['班级', '观察次数']);
    await shot(page, 'report-run');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('report-export').click()]);
    expect(download.suggestedFilename()).toBe('各班观察记录.xlsx');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load((await readFile(String(await download.path()))) as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    const rows = (sheet?.getSheetValues() ?? []).filter(Boolean).map((r) => (r as unknown[]).slice(1));
    expect(rows[0]).toEqual(['各班观察记录']);
    expect(rows[2]).toEqual(['班级', '观察次数']);
    expect(rows.slice(3).map((r) => r.map(String))).toEqual(shown);
    expect(errors).toEqual([]);

    // In English: the same screen's words.
    await setLanguage(page, 'en');
    await expect.poll(() => page.getByTestId('report-export').textContent()).toBe('Export to Excel');
    await shot(page, 'report-run-en');
    await page.goto('/report/reportlist/index');
    await page.getByTestId('report-list-page').waitFor();
    await expect.poll(() => page.getByTestId('report-add').textContent()).toBe('New report');
    await shot(page, 'report-list-en');

    // A teacher: no report screen, and the designer's address shows her she may not design.
    const teacher = await (await e2e.context()).newPage();
    await signIn(teacher, TEACHER);
    await teacher.goto('/report/design');
    await teacher.getByTestId('report-design-denied').waitFor();
    expect(await teacher.getByTestId('report-query').count()).toBe(0);
    await shot(teacher, 'report-designer-teacher');
  });
});
