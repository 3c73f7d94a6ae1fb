/// <reference lib="dom" />
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../services/core/src/permissions/demo';
import { type E2E, shot, signIn, startE2E, waitForMenu, watchErrors } from './support/app';
import { openMenu, quiet, rows, setLanguage } from './support/crud';

const TENANT = '100001';
const TEACHER = { tenant: TENANT, account: 'teacher1', password: DEMO_PASSWORD };
const ADMIN = { tenant: TENANT, account: 'admin', password: DEMO_PASSWORD };
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const SHOTS = process.env.SPROUT_SHOTS_DIR;

/** A screenshot of the journey (also in SPROUT_SHOTS_DIR when given). */
async function snap(page: Page, name: string) {
  await quiet(page);
  await shot(page, name);
  if (SHOTS) await page.screenshot({ path: join(SHOTS, `${name}.png`) });
}

/** 100 teachers as the import takes them; `bad` gives one row a phone number that is none. */
async function teachersSheet(bad: boolean) {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('教师');
  ws.addRow(['教师编号', '姓名', '性别', '出生日期', '民族', '编制', '学历', '手机号码', '部门', '岗位']);
  for (let i = 1; i <= 100; i += 1)
    ws.addRow([
      `E${String(i).padStart(3, '0')}`,
      `导入教师${i}`,
      i % 2 ? '女' : '男',
      '1992-03-04',
      '汉族',
      '在编',
      '本科',
      bad && i === 42 ? '12345' : `139${String(i).padStart(8, '0')}`,
      '小班组',
      '配班教师',
    ]);
  return { name: 'teachers.xlsx', mimeType: XLSX, buffer: Buffer.from(await wb.xlsx.writeBuffer()) };
}

/** Picks the option named `name` of a Mantine select. */
async function choose(page: Page, testId: string, name: string) {
  await page.getByTestId(testId).click();
  await page.getByRole('option', { name, exact: true }).click();
}

/**
 * Issue 19's journeys: teacher1 fills her growth archive many entries at a time (one invalid
 * entry → nothing saved, that entry named; fixed → all saved) and finds her excellent lesson
 * plan among the platform's records of her; an administrator imports 100 teachers from an
 * .xlsx (one bad row named, nothing written; fixed → imported), then exports them.
 */
describe('growth archive and teacher records', () => {
  let e2e: E2E;
  let page: Page;
  let errors: string[];
  let bearer = '';

  const api = async (path: string) => {
    const r = await fetch(`${e2e.server.url}/api${path}`, {
      headers: {
        Authorization: `Basic ${Buffer.from('saber:saber_secret').toString('base64')}`,
        'Blade-Auth': bearer,
      },
    });
    const text = await r.text();
    expect(r.status, text).toBe(200);
    return JSON.parse(text).data;
  };

  beforeAll(async () => {
    e2e = await startE2E();
    page = await (await e2e.context()).newPage();
    await page.setViewportSize({ width: 1440, height: 900 });
    errors = watchErrors(page);
    page.on('request', (r) => {
      const value = r.headers()['blade-auth'];
      if (value) bearer = value;
    });
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it('teacher1 adds two entries at once: one invalid → nothing saved and that entry named; fixed → both saved', async () => {
    await signIn(page, TEACHER);
    await waitForMenu(page);
    await openMenu(page, 'growth', '/growth/teacher**', 'growth-page', 'growth_center');
    await page.getByTestId('growth-add').click();
    const d = page.getByTestId('growth-dialog');
    await choose(page, 'growth-entry-0-category', '荣誉获奖');
    await page.getByTestId('growth-entry-0-title').fill('市优质课评比一等奖');
    await page.getByTestId('growth-entry-0-date').fill('2026-10-15');
    await choose(page, 'growth-entry-0-level', '市级');
    await page.getByTestId('growth-add-row').click();
    await choose(page, 'growth-entry-1-category', '公开课');
    await page.getByTestId('growth-entry-1-date').fill('2026-11-02');
    await page.getByTestId('growth-save').click();
    await page.getByTestId('growth-refused').waitFor();
    await d.getByText('第 2 条：请输入标题').waitFor();
    expect(await api('/growth/growth/list')).toEqual([]);
    await snap(page, 'growth-refused-zh');

    await page.getByTestId('growth-entry-1-title').fill('区公开课《小蚂蚁搬家》');
    await page.getByTestId('growth-save').click();
    await d.waitFor({ state: 'hidden' });
    await expect.poll(async () => page.getByTestId('growth-entries').locator('tbody tr').count()).toBe(2);
    expect((await api('/growth/growth/list')).map((e: { title: string }) => e.title).sort()).toEqual([
      '区公开课《小蚂蚁搬家》',
      '市优质课评比一等奖',
    ]);
  });

  it('shows her excellent lesson plan among what the platform knows of her', async () => {
    const plans = page.getByTestId('growth-known-plans');
    await plans.getByText('优秀').first().waitFor();
    const known = await api('/growth/growth/known');
    const excellent = known.plans.find((p: { excellent: boolean }) => p.excellent);
    expect(excellent).toMatchObject({ kind: 'week_plan', status: 'success' });
    if (excellent.title) await plans.getByText(excellent.title).first().waitFor();
    await snap(page, 'growth-zh');
    await setLanguage(page, 'en');
    await page.getByText('What the platform knows (read only)').waitFor();
    await plans.getByText('Excellent').first().waitFor();
    await snap(page, 'growth-en');
    await setLanguage(page, 'zh');
    expect(errors).toEqual([]);
  });

  it('an administrator imports 100 teachers: the bad row named and nothing written; fixed → all imported; then exports them', async () => {
    await page.getByTestId('user-menu').click();
    await page.getByTestId('logout').click();
    await page.getByTestId('logout-confirm').click();
    await page.waitForURL('**/login');
    await signIn(page, ADMIN);
    await waitForMenu(page);
    await openMenu(page, 'teacher_master', '/teacher/master**', 'teachers-page', 'class_center');
    await page.getByTestId('teacher-excel').click();
    await page.getByTestId('teacher-import').click();
    const d = page.getByTestId('teacher-import-dialog');
    await d.locator('input[type="file"]').setInputFiles(await teachersSheet(true));
    await page.getByTestId('teacher-import-upload').click();
    const bad = page.getByTestId('teacher-import-errors');
    await bad.getByRole('cell', { name: '43', exact: true }).waitFor();
    await bad.getByText('请输入 11 位手机号码').waitFor();
    await d.getByText('1 行数据有误，未写入任何数据').waitFor();
    expect((await api('/teacher/master/list?size=10')).total).toBe(0);
    await snap(page, 'teachers-import-refused-zh');

    await d.getByRole('button', { name: '重新选择文件' }).click();
    await d.locator('input[type="file"]').setInputFiles(await teachersSheet(false));
    await page.getByTestId('teacher-import-upload').click();
    await page.getByTestId('teacher-import-done').getByText('导入成功，共 100 行').waitFor();
    await d.getByRole('button', { name: '关闭' }).click();
    await expect.poll(() => rows(page).count()).toBe(10);
    expect((await api('/teacher/master/list?size=10')).total).toBe(100);
    await snap(page, 'teachers-zh');

    await page.getByTestId('teacher-excel').click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('teacher-export').click()]);
    expect(download.suggestedFilename()).toMatch(/\.xlsx$/);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await readFile(String(await download.path()))) as unknown as ExcelJS.Buffer);
    const sheet = wb.worksheets[0];
    expect(sheet?.rowCount).toBe(101);
    expect(sheet?.getRow(2).getCell(1).text).toBe('E001');
    expect(sheet?.getRow(101).getCell(2).text).toBe('导入教师100');

    await setLanguage(page, 'en');
    await page.getByTestId('teachers-page').getByText('Teacher number').first().waitFor();
    await snap(page, 'teachers-en');
    await setLanguage(page, 'zh');
    expect(errors).toEqual([]);
  });

  it('the administrator prints a class roster from the children screen', async () => {
    await openMenu(page, 'student', '/student/student**', 'children-page', 'class_center');
    await page.getByTestId('child-excel').waitFor();
    await page.getByTestId('child-roster').click();
    await page.waitForURL('**/student/roster**');
    await choose(page, 'roster-class', '小一班');
    await expect.poll(() => page.getByTestId('roster-table').locator('tbody tr').count()).toBeGreaterThan(5);
    await page.getByText('小一班 花名册').waitFor();
    await snap(page, 'roster-zh');
    await setLanguage(page, 'en');
    await page.getByText('小一班 roster').waitFor();
    await snap(page, 'roster-en');
    await setLanguage(page, 'zh');
    expect(errors).toEqual([]);
  });
});
