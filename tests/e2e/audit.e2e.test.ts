/// <reference lib="dom" />
// Browser globals appear inside page.evaluate callbacks, which run in the page.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { strFromU8, unzipSync } from 'fflate';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '../../services/core/src/permissions/demo';
import { addDays, localDate, mondayOf } from '../../services/core/src/time';
import { type E2E, SCREENSHOTS, signIn, startE2E, waitForMenu, watchErrors } from './support/app';
import { field, openMenu, quiet, rows, setLanguage } from './support/crud';

const TENANT = '100001';
const user = (account: string) => {
  if (!DEMO_ACCOUNTS.some((a) => a.account === account)) throw new Error(`no demo account ${account}`);
  return { tenant: TENANT, account, password: DEMO_PASSWORD };
};
const AUDITOR = user('auditor');
const TEACHER = user('teacher1');
const SHOTS = SCREENSHOTS;

/**
 * Picks a day in the open Mantine date picker: the calendar starts at `shown` (a yyyy-MM), turns
 * to the day's month, clicks the day; answers the month now shown.
 */
async function pickDay(page: Page, shown: string, day: string): Promise<string> {
  const dropdown = page.locator('[data-dates-dropdown]');
  let month = shown;
  while (month !== day.slice(0, 7)) {
    const back = month > day.slice(0, 7);
    await dropdown
      .locator(`button[data-direction="${back ? 'previous' : 'next'}"]`)
      .first()
      .click();
    month = addDays(`${month}-15`, back ? -30 : 30).slice(0, 7);
  }
  await dropdown
    .locator('button:not([data-outside]):not([data-hidden])')
    .filter({ hasText: new RegExp(`^${Number(day.slice(8))}$`) })
    .first()
    .click();
  return month;
}

/**
 * Issue 24's journey: the demo auditor finds 小一班's returned-and-resubmitted week by its
 * reviewer and date range in 审计追溯, steps its replay back to the return, sees what the
 * resubmission changed, exports the evidence (the test checks the JSON's sha256 against the
 * page and the .docx); a teacher cannot open the console.
 */
describe('audit: an auditor replays a returned and resubmitted week', () => {
  let e2e: E2E;
  let weekId = '';
  const today = localDate(new Date(), 'Asia/Shanghai');
  const monday = mondayOf(today);
  // 小一班's week two weeks ago was written the Thursday before it: the range holds it alone.
  const [from, to] = [addDays(monday, -20), addDays(monday, -16)];

  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it('finds the week, replays it to the return, diffs the resubmission and exports the evidence', async () => {
    const context = await e2e.context();
    const page = await context.newPage();
    const errors = watchErrors(page);
    await signIn(page, AUDITOR);
    await waitForMenu(page);
    await openMenu(page, 'audit', '/system/audit/index', 'audit-page');

    // Type 周计划, class 小一班, reviewer 张敏, created between `from` and `to`.
    await field(page, 'streamType').click();
    await page.getByRole('option', { name: '周计划', exact: true }).click();
    await field(page, 'className').fill('小一班');
    await field(page, 'reviewerName').fill('张敏');
    await field(page, 'createTime').click();
    const shown = await pickDay(page, today.slice(0, 7), from);
    await pickDay(page, shown, to);
    await page.locator('[data-dates-dropdown]').waitFor({ state: 'hidden' });
    const searched = page.waitForResponse(
      (r) => r.url().includes('/api/audit/search') && r.url().includes('reviewerName'),
    );
    await page.getByTestId('crud-search-submit').click();
    const answer = await (await searched).json();
    expect(answer.data.total).toBe(1);
    await expect.poll(() => rows(page).count()).toBe(1);
    const row = rows(page).first();
    await expect.poll(() => row.textContent()).toContain('张敏');
    expect(await row.textContent()).toContain('已通过');
    await quiet(page);
    await page.screenshot({ path: `${SHOTS}/audit-search-zh.png` });

    await row.getByTestId('audit-row-title').click();
    await page.waitForURL('**/system/audit/stream?id=*');
    const stream = page.getByTestId('audit-stream');
    await stream.waitFor();
    await expect.poll(() => page.getByTestId('audit-event').count()).toBe(6);
    // Now: approved, version 6 of 6.
    await expect.poll(() => page.getByTestId('audit-state').getAttribute('data-status')).toBe('success');
    await page.getByTestId('week-sheet').waitFor();

    // Replay from the start, one step at a time, to the return.
    await page.getByTestId('replay-first').click();
    await expect.poll(() => page.getByTestId('replay-label').textContent()).toContain('版本 0 / 6');
    const seen: string[] = [];
    for (let v = 1; v <= 3; v++) {
      await page.getByTestId('replay-next').click();
      await expect.poll(() => page.getByTestId('replay-label').textContent()).toContain(`版本 ${v} / 6`);
      await expect
        .poll(() => page.getByTestId('audit-state').getAttribute('data-status'))
        .toBe(['draft', 'trial', 'returned'][v - 1]);
      seen.push((await page.getByTestId('audit-state').getAttribute('data-status')) ?? '');
    }
    expect(seen).toEqual(['draft', 'trial', 'returned']);
    await expect.poll(() => page.getByTestId('audit-state-comment').textContent()).toContain('区域活动的材料投放');
    await page.getByTestId('week-sheet').waitFor();
    await quiet(page);
    await page.screenshot({ path: `${SHOTS}/audit-replay-returned-zh.png`, fullPage: true });
    // And back one step: in review again.
    await page.getByTestId('replay-prev').click();
    await expect.poll(() => page.getByTestId('audit-state').getAttribute('data-status')).toBe('trial');

    // The resubmission against the return: v3 → v5, side by side.
    await page.getByTestId('compare-from').click();
    await page.getByRole('option', { name: /^v3 / }).click();
    await page.getByTestId('compare-to').click();
    await page.getByRole('option', { name: /^v5 / }).click();
    const compare = page.getByTestId('audit-compare');
    await expect
      .poll(() => compare.getByTestId('audit-change').evaluateAll((els) => els.map((e) => e.getAttribute('data-path'))))
      .toEqual(expect.arrayContaining(['content.homeCooperation', 'status']));
    // Each field by the name its form gives it (the week's 家园共育), the record's own by the console's.
    await expect
      .poll(() => compare.getByTestId('audit-change-field').allTextContents())
      .toEqual(expect.arrayContaining(['家园共育', '状态']));
    await expect.poll(() => compare.textContent()).toContain('周末亲子任务：完成一张主题小报。');
    // The timeline's return opens to its data and diff.
    const returned = page.locator('[data-testid="audit-event"][data-version="3"]');
    expect(await returned.getByTestId('audit-event-actor').textContent()).toBe('张敏');
    await returned.getByTestId('audit-event-expand').click();
    await returned.getByTestId('audit-changes').waitFor();
    await compare.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/audit-diff-zh.png`, fullPage: true });

    // Evidence: the JSON's sha256 is on the page and printed in the .docx.
    const [json] = await Promise.all([page.waitForEvent('download'), page.getByTestId('audit-evidence-json').click()]);
    const jsonBytes = await readFile((await json.path()) as string);
    const hash = createHash('sha256').update(jsonBytes).digest('hex');
    await expect.poll(() => page.getByTestId('audit-evidence-hash').textContent()).toBe(hash);
    expect(JSON.parse(jsonBytes.toString('utf8'))).toMatchObject({ streamType: 'week', version: 6 });
    const [docx] = await Promise.all([page.waitForEvent('download'), page.getByTestId('audit-evidence-docx').click()]);
    expect(docx.suggestedFilename()).toMatch(/\.docx$/);
    const xml = strFromU8(
      unzipSync(new Uint8Array(await readFile((await docx.path()) as string)))['word/document.xml'] as Uint8Array,
    );
    expect(xml).toContain(hash);

    // The console links back to the record (the auditor may not read it there: that is for those who may).
    weekId = new URL(page.url()).searchParams.get('id') ?? '';
    expect(await page.getByTestId('audit-open-record').getAttribute('href')).toBe(`/weekdetails/details?id=${weekId}`);

    await setLanguage(page, 'en');
    await page.getByTestId('replay-last').click();
    await expect.poll(() => page.getByTestId('replay-label').textContent()).toContain('State as of version 6 / 6');
    await quiet(page);
    await page.screenshot({ path: `${SHOTS}/audit-stream-en.png` });
    await openMenu(page, 'audit', '/system/audit/index', 'audit-page');
    await page.getByTestId('crud-search-submit').click();
    await expect.poll(() => rows(page).count()).toBeGreaterThan(5);
    await quiet(page);
    await page.screenshot({ path: `${SHOTS}/audit-search-en.png` });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a record’s history links to its stream for those allowed: the kindergarten’s administrator', async () => {
    const context = await e2e.context();
    const page = await context.newPage();
    await signIn(page, user('admin'));
    await waitForMenu(page);
    await page.goto(`/weekdetails/details?id=${weekId}`);
    await page.getByTestId('week-details').waitFor();
    await page.getByTestId('history-audit-link').click();
    await page.waitForURL(`**/system/audit/stream?id=${weekId}`);
    await expect.poll(() => page.getByTestId('audit-event').count()).toBe(6);
    await context.close();
  });

  it('a teacher cannot open the console, nor sees the link from a record’s history', async () => {
    const context = await e2e.context();
    const page = await context.newPage();
    await signIn(page, TEACHER);
    await waitForMenu(page);
    await page.getByTestId('menu-lesson').waitFor();
    expect(await page.getByTestId('menu-audit').count()).toBe(0);
    await page.goto(`/weekdetails/details?id=${weekId}`);
    await page.getByTestId('history').waitFor();
    expect(await page.getByTestId('history-audit-link').count()).toBe(0);
    await page.goto('/system/audit/index');
    await page.waitForURL('**/404');
    await context.close();
  });
});
