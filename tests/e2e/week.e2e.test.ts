/// <reference lib="dom" />
// Browser globals appear inside page.evaluate callbacks, which run in the page.
import { readFile } from 'node:fs/promises';
import { unzipSync } from 'fflate';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '../../services/core/src/permissions/demo';
import { docxText } from '../../services/core/src/records/export';
import { type E2E, shot, signIn, startE2E, watchErrors } from './support/app';

const TENANT = '100001';
const user = (account: string) => {
  const found = DEMO_ACCOUNTS.find((a) => a.account === account);
  if (!found) throw new Error(`no demo account ${account}`);
  return { tenant: TENANT, account, password: DEMO_PASSWORD, realName: found.realName };
};
const TEACHER = user('teacher1');
const REVIEWER = user('reviewer');

async function confirmModal(page: Page) {
  await page
    .getByRole('dialog')
    .getByRole('button', { name: /确定|Confirm/ })
    .click();
}

interface HomeCounts {
  /** Trial records the viewer may review (read model `record_list`, immediate). */
  pending: number;
  /** This week's weeks submitted / approved (async projection `record_activity`). */
  submitted: number;
  approved: number;
}

/** The reviewer's figures on the home page, after a fresh load. */
async function homeCounts(page: Page): Promise<HomeCounts> {
  await page.goto('/wel/index');
  await page.getByTestId('dashboard-pending').waitFor();
  const week = page.getByTestId('dashboard-family-week');
  const num = async (cell: ReturnType<Page['getByTestId']>) => Number(await cell.textContent());
  return {
    pending: await num(page.getByTestId('dashboard-pending')),
    submitted: await num(week.getByTestId('submitted')),
    approved: await num(week.getByTestId('approved')),
  };
}

/**
 * Issue 7 end to end: a teacher writes a week (header, a day cell, a rich section, a lesson
 * plan) that saves itself, submits it; the reviewer sees the dashboard counts move (pending
 * reviews, this week's submissions and approvals), approves it from the queue; the history shows both events with their actors; the Word export of
 * the week holds its theme, and the approved list exports a zip.
 */
describe('lesson plans: write, submit, review, history, export', () => {
  let e2e: E2E;
  let teacher: Page;
  let reviewer: Page;
  let errors: string[][];
  const theme = `建构游戏周 ${Date.now() % 100000}`;
  let weekId = '';
  let start: HomeCounts;

  beforeAll(async () => {
    e2e = await startE2E();
    teacher = await (await e2e.context()).newPage();
    reviewer = await (await e2e.context()).newPage();
    errors = [watchErrors(teacher), watchErrors(reviewer)];
    await signIn(teacher, TEACHER);
    await signIn(reviewer, REVIEWER);
    // The weekly counts come from an async projection of the seeded records: read them once settled.
    let previous = '';
    for (let i = 0; i < 40; i += 1) {
      start = await homeCounts(reviewer);
      if (JSON.stringify(start) === previous) break;
      previous = JSON.stringify(start);
      await reviewer.waitForTimeout(1500);
    }
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it('saves a new week by itself as the teacher types, then submits it with a lesson plan', async () => {
    await teacher.goto('/week/week/');
    await teacher.getByTestId('week-editor').waitFor();
    // Nothing is saved before the class and the theme are there.
    await expect.poll(() => teacher.getByTestId('save-status').getAttribute('data-kind')).toBe('idle');
    await teacher.getByTestId('week-theme').fill(theme);
    await teacher.getByTestId('day-cell-2-outdoor').fill('拍皮球、跳房子');
    await teacher.locator('[data-testid="week-weeklyGoals"] .ProseMirror').click();
    await teacher.keyboard.type('能用积木搭出有结构的作品');
    await expect
      .poll(() => teacher.getByTestId('save-status').getAttribute('data-kind'), { timeout: 20_000 })
      .toBe('saved');
    weekId = new URL(teacher.url()).searchParams.get('id') ?? '';
    expect(weekId).toMatch(/^\d+$/);

    // Once saved, the week is edited live (issue 8): an edit is stored by the collab service,
    // and 保存版本 makes it a new version at once (it would also be one after 10 s idle).
    await teacher.getByTestId('day-cell-0-morning').fill('晨间律动');
    await teacher.locator('[data-testid="week-editor"][data-collab="live"]').waitFor({ timeout: 20_000 });
    await expect
      .poll(() => teacher.getByTestId('save-status').getAttribute('data-kind'), { timeout: 20_000 })
      .toBe('saved');
    await teacher.getByTestId('week-save-revision').click();
    // On a loaded machine the 10 s idle save may have made the version before the click: the
    // button then says so. Either way the edit is a version (the history below shows its diff).
    await teacher
      .getByText(/^(已保存为新版本|自上个版本以来没有新的修改)$/)
      .first()
      .waitFor();

    await teacher.getByTestId('week-add-plan').click();
    await teacher.getByTestId('plan-title').fill('搭高楼');
    await teacher.locator('[data-testid="plan-goals"] .ProseMirror').click();
    await teacher.keyboard.type('尝试搭出稳固的高楼');
    await teacher.getByTestId('plan-save').click();
    await expect
      .poll(() => teacher.getByTestId('plan-row').allTextContents())
      .toEqual([expect.stringContaining('搭高楼')]);
    await shot(teacher, 'week-editor');

    await teacher.getByTestId('week-submit').click();
    await confirmModal(teacher);
    await teacher.waitForURL(`**/weekdetails/details?id=${weekId}`);
    await expect.poll(() => teacher.getByTestId('week-status').getAttribute('data-status')).toBe('trial');
  });

  it('moves the reviewer’s dashboard; the reviewer approves the week from the queue', async () => {
    // Pending reviews count at once; this week's submissions once the projection has run.
    await expect
      .poll(() => homeCounts(reviewer), { timeout: 30_000, interval: 1000 })
      .toEqual({ ...start, pending: start.pending + 1, submitted: start.submitted + 1 });
    // The weeks' chart (its own chunk) arrives after the figures, with a bar series per status.
    await reviewer.getByTestId('dashboard-chart').locator('.recharts-bar').first().waitFor();
    await shot(reviewer, 'week-dashboard-reviewer');

    await reviewer.getByTestId('dashboard-open-queue').click();
    await reviewer.waitForURL('**/week/trial/index');
    await reviewer.getByRole('link', { name: theme }).click();
    await reviewer.waitForURL(`**/weekdetails/details?id=${weekId}`);
    await reviewer.getByTestId('week-approve').click();
    await reviewer.getByTestId('review-comment').fill('结构清晰，同意。');
    await reviewer.getByTestId('review-confirm').click();
    await expect.poll(() => reviewer.getByTestId('week-status').getAttribute('data-status')).toBe('success');

    await expect
      .poll(() => homeCounts(reviewer), { timeout: 30_000, interval: 1000 })
      .toEqual({ pending: start.pending, submitted: start.submitted + 1, approved: start.approved + 1 });
  });

  it('shows the author the outcome and the history: submitted by the teacher, approved by the reviewer, edits with diffs', async () => {
    await teacher.goto('/week/mine/index');
    await teacher.getByRole('link', { name: theme }).click();
    await teacher.waitForURL(`**/weekdetails/details?id=${weekId}`);
    await expect.poll(() => teacher.getByTestId('week-review-info').textContent()).toContain(REVIEWER.realName);

    const entries = teacher.getByTestId('history-entry');
    await expect.poll(() => entries.count()).toBeGreaterThanOrEqual(4);
    const byType = async (type: string) => {
      const entry = teacher.locator(`[data-testid="history-entry"][data-type="${type}"]`).first();
      return entry.getByTestId('history-actor').textContent();
    };
    expect(await byType('RecordSubmitted')).toBe(TEACHER.realName);
    expect(await byType('RecordApproved')).toBe(REVIEWER.realName);
    expect(await byType('RecordCreated')).toBe(TEACHER.realName);
    // The second save changed one grid cell: the timeline names it with its diff.
    const update = teacher.locator('[data-testid="history-entry"][data-type="DraftUpdated"]').first();
    await expect.poll(() => update.getByTestId('history-changes').textContent()).toMatch(/周一 · 晨间活动.*晨间律动/);
    await shot(teacher, 'week-details-approved');
  });

  it('exports the week as a Word file holding its theme', async () => {
    const [download] = await Promise.all([
      teacher.waitForEvent('download'),
      teacher.getByTestId('week-export').click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.docx$/);
    const path = await download.path();
    const text = await docxText(new Uint8Array(await readFile(path)));
    expect(text).toContain(theme);
    expect(text).toContain('拍皮球、跳房子');
  });

  it('exports approved weeks together as a zip of Word files, with progress', async () => {
    await reviewer.goto('/week/success/index');
    const row = reviewer.locator(`[data-testid="list-row"][data-id="${weekId}"]`);
    await row.waitFor();
    await row.getByTestId('list-select').check();
    const [download] = await Promise.all([
      reviewer.waitForEvent('download', { timeout: 60_000 }),
      reviewer.getByTestId('list-export-selected').click(),
    ]);
    await reviewer.getByTestId('export-progress-bar').waitFor();
    expect(download.suggestedFilename()).toMatch(/\.zip$/);
    const files = unzipSync(new Uint8Array(await readFile(await download.path())));
    const names = Object.keys(files);
    expect(names).toHaveLength(1);
    expect(names[0]).toMatch(/\.docx$/);
    expect(await docxText(files[names[0] as string] as Uint8Array)).toContain(theme);
    await shot(reviewer, 'week-export-zip');
  });

  it('opens day plans in the layout the tenant chose (TianYuan by default, TongXing when set)', async () => {
    await teacher.goto('/week/halfPlanList');
    await teacher.getByTestId('list-row').first().getByTestId('list-open').click();
    await teacher.waitForURL('**/week/halfplanTianYuan?id=*');
    await teacher.getByTestId('segments-tianyuan').waitFor();
    const id = new URL(teacher.url()).searchParams.get('id');

    // The tenant parameter `week.halfPlanLayout` has no screen yet: answer the layout call as if it were set.
    await teacher.route('**/api/half_plan/halfplan/layout', (route) =>
      route.fulfill({ json: { code: 200, success: true, data: { layout: 'tongxing' }, msg: '' } }),
    );
    await teacher.goto('/week/halfPlanList');
    await teacher.getByTestId('list-row').first().getByTestId('list-open').click();
    await teacher.waitForURL(`**/week/halfplanTongXing?id=${id}`);
    await teacher.getByTestId('segments-tongxing').waitFor();
    await teacher.unroute('**/api/half_plan/halfplan/layout');
    await shot(teacher, 'week-day-plan-tongxing');
    expect(errors).toEqual([[], []]); // no uncaught error in either browser all along
  });
});
