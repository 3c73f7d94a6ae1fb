/// <reference lib="dom" />
// Browser globals appear inside page.evaluate callbacks, which run in the page.
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../services/core/src/permissions/demo';
import { type E2E, signIn, startE2E, waitForMenu, watchErrors } from './support/app';
import { notification, openMenu, quiet, setLanguage } from './support/crud';

const person = (account: string) => ({ tenant: '100001', account, password: DEMO_PASSWORD });
const SHOTS = process.env.SPROUT_E2E_SHOTS ?? '/work/shots/h9';
const MODEL = 'leave';
const REASON = '家中有事，需请假四天';

/** A screenshot of the screen in Chinese, then in English (the language menu), back to Chinese. */
async function bothLanguages(page: Page, name: string, ready: (page: Page) => Promise<unknown>) {
  await quiet(page);
  await page.screenshot({ path: `${SHOTS}/${name}-zh.png`, fullPage: true });
  await setLanguage(page, 'en');
  await page.getByTestId('language-zh').waitFor({ state: 'hidden' });
  await ready(page);
  await page.screenshot({ path: `${SHOTS}/${name}-en.png`, fullPage: true });
  await setLanguage(page, 'zh');
  await ready(page);
}

/** Signs in and shows the 事务 top menu (its sections: 我的事务, 流程管理). */
async function signInToAffairs(page: Page, account: string) {
  await signIn(page, person(account));
  await waitForMenu(page);
  await page.getByTestId('top-menu-top_affairs').click();
}

/** The table rows of a workflow list by its test id. */
const rowsOf = (page: Page, list: string) => page.getByTestId(`${list}-row`);

/** Clicks an entry of bpmn-js's context pad of the selected element (append a task, replace, …). */
async function pad(page: Page, action: string) {
  await page.locator(`.djs-context-pad .entry[data-action="${action}"]`).click();
}

/** Sets a property of the selected element in our properties panel. */
async function prop(page: Page, name: string, value: string) {
  const input: Locator = page.getByTestId(`prop-${name}`);
  await input.fill(value);
}

/** Appends a user task after the selected element, names it and gives it its performers. */
async function appendUserTask(page: Page, name: string, performers: Record<string, string>) {
  const panel = page.getByTestId('bpmn-properties');
  const before = await panel.getAttribute('data-element');
  await pad(page, 'append.append-task');
  // The new task is selected: name it in the panel, then make it a user task (the name stays).
  await expect.poll(() => panel.getAttribute('data-element')).not.toBe(before);
  await prop(page, 'name', name);
  await pad(page, 'replace');
  await page.locator('.djs-popup [data-id="replace-with-user-task"]').click();
  await expect.poll(() => panel.textContent()).toContain('UserTask');
  expect(await page.getByTestId('prop-name').inputValue()).toBe(name);
  for (const [field, value] of Object.entries(performers)) await prop(page, field, value);
}

/**
 * Issue 20's journey: an administrator draws a two-step leave process in the modeler (approver
 * chosen by the applicant, then the principal) and deploys it; teacher1 applies for 4 days of
 * leave naming 陈晓燕 (leader); leader claims the task and approves it from her to-do list; the
 * principal claims and approves; teacher1 sees the request finished, with the highlighted
 * diagram and the history of who did what.
 */
describe('workflow: a drawn leave process from the modeler to the teacher’s done list', () => {
  let e2e: E2E;
  let admin: Page;
  let teacher: Page;
  let leader: Page;
  let principal: Page;
  const errors: string[][] = [];

  beforeAll(async () => {
    e2e = await startE2E();
    const pages = await Promise.all([1, 2, 3, 4].map(async () => (await e2e.context()).newPage()));
    [admin, teacher, leader, principal] = pages as [Page, Page, Page, Page];
    for (const p of pages) errors.push(watchErrors(p));
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it('the administrator draws a two-step process in the modeler and deploys it', async () => {
    await signInToAffairs(admin, 'admin');
    await openMenu(admin, 'flow_model', '/flow/model/index', 'flow-models', 'flow');
    await bothLanguages(admin, 'flow-models', (p) => p.getByTestId('flow-models').waitFor());
    // The tenant's default leave model goes (its deployment stays): the new drawing takes its key.
    const seeded = rowsOf(admin, 'flow-models').filter({ hasText: '请假流程' });
    await seeded.first().waitFor();
    await seeded.first().getByTestId('model-remove').click();
    await admin.getByTestId('model-remove-dialog-confirm').click();
    await expect.poll(() => seeded.count()).toBe(0);
    await admin.getByTestId('model-add').click();
    await admin.waitForURL('**/flow/model/design');
    await admin.locator('[data-testid="bpmn-modeler"][data-ready="yes"]').waitFor();
    await admin.getByTestId('model-key').fill(MODEL);
    await admin.getByTestId('model-name').fill('请假流程（两级审批）');

    await admin.locator('[data-element-id="StartEvent_1"]').click();
    await appendUserTask(admin, '审批', { candidateUsers: '${taskUser}' });
    await appendUserTask(admin, '园长审批', { candidateGroups: 'principal' });
    await pad(admin, 'append.end-event');
    // Three elements after the start: two user tasks and the end, joined by flows.
    expect(await admin.locator('.djs-element.djs-shape[data-element-id^="Activity_"]').count()).toBe(2);
    expect(await admin.locator('.djs-element.djs-connection').count()).toBe(3);
    await admin.locator('.djs-element.djs-shape', { hasText: '审批' }).first().click();
    await bothLanguages(admin, 'flow-modeler', (p) => p.getByTestId('bpmn-properties').waitFor());

    await admin.getByTestId('model-save-deploy').click();
    await admin.getByTestId('deploy-dialog').waitFor();
    await admin.getByTestId('deploy-confirm').click();
    await notification(admin, '已部署');

    // The new version is listed among the deployments, active.
    await openMenu(admin, 'flow_manager', '/flow/manager/index', 'flow-deployments', 'flow');
    const drawn = rowsOf(admin, 'flow-deployments').filter({ hasText: '请假流程（两级审批）' });
    await drawn.first().waitFor();
    expect(await drawn.first().getByTestId('deployment-state').textContent()).toBe('激活');
    await bothLanguages(admin, 'flow-deployments', (p) => p.getByTestId('flow-deployments').waitFor());
  });

  it('a teacher applies for 4 days of leave, naming her approver', async () => {
    await signInToAffairs(teacher, 'teacher1');
    await openMenu(teacher, 'work_start', '/work/start/index', 'work-start', 'work');
    const leave = rowsOf(teacher, 'work-start').filter({ hasText: '请假流程（两级审批）' });
    await leave.first().waitFor();
    await bothLanguages(teacher, 'work-start', (p) => p.getByTestId('work-start').waitFor());
    await leave.first().getByTestId('work-begin').click();
    await teacher.getByTestId('leave-form').waitFor();
    await teacher.getByTestId('leave-start').fill('2026-12-07T08:00');
    await teacher.getByTestId('leave-end').fill('2026-12-11T08:00');
    await expect.poll(() => teacher.getByTestId('leave-form-days').textContent()).toContain('4 天');
    await teacher.getByTestId('leave-taskUser').click();
    await teacher.getByRole('option', { name: /陈晓燕/ }).click();
    await teacher.getByTestId('leave-reason-input').fill(REASON);
    await bothLanguages(teacher, 'leave-form', (p) => p.getByTestId('leave-form').waitFor());
    await teacher.getByTestId('leave-submit').click();
    await notification(teacher, '请假申请已提交');
    // Her request opens with its diagram: the approver's step is current.
    await teacher.getByTestId('leave-detail').waitFor();
    expect(await teacher.getByTestId('leave-days').textContent()).toContain('4');
    await teacher.locator('[data-testid="flow-diagram"][data-state="ready"]').waitFor();
    await openMenu(teacher, 'work_send', '/work/send/index', 'work-send', 'work');
    await rowsOf(teacher, 'work-send').first().waitFor();
    await bothLanguages(teacher, 'work-send', (p) => p.getByTestId('work-send').waitFor());
  });

  it('the administrator follows the running instance: its current task, diagram and history', async () => {
    await openMenu(admin, 'flow_follow', '/flow/follow/index', 'flow-follow', 'flow');
    const running = rowsOf(admin, 'flow-follow').filter({ hasText: '王芳' });
    await running.first().waitFor();
    expect(await running.first().textContent()).toContain('审批');
    await bothLanguages(admin, 'flow-follow', (p) => p.getByTestId('flow-follow').waitFor());
    await running.first().getByTestId('follow-view').click();
    await admin.getByTestId('follow-detail').waitFor();
    await admin.locator('[data-testid="flow-diagram"][data-state="ready"]').waitFor();
    await admin.screenshot({ path: `${SHOTS}/flow-follow-detail-zh.png` });
    await admin.keyboard.press('Escape');
  });

  it('her approver claims the task and approves it from the to-do list', async () => {
    await signIn(leader, person('leader'));
    await waitForMenu(leader);
    // Her home page counts the task waiting for her among her to-dos, beside her plans and reviews.
    const tasks = leader.getByTestId('dashboard-todo-tasks');
    await expect.poll(async () => Number(await tasks.textContent()), { timeout: 30_000 }).toBeGreaterThanOrEqual(1);
    await bothLanguages(leader, 'home-todos', (p) => p.getByTestId('dashboard-todo-tasks').waitFor());
    await leader.getByTestId('top-menu-top_affairs').click();
    await openMenu(leader, 'work_claim', '/work/claim/index', 'work-claim', 'work');
    const task = rowsOf(leader, 'work-claim').filter({ hasText: '王芳' });
    await task.first().waitFor();
    await bothLanguages(leader, 'work-claim', (p) => p.getByTestId('work-claim').waitFor());
    await task.first().getByTestId('work-do-claim').click();
    await leader.getByTestId('claim-dialog-confirm').click();
    await notification(leader, '已签收');

    await openMenu(leader, 'work_todo', '/work/todo/index', 'work-todo', 'work');
    const todo = rowsOf(leader, 'work-todo').filter({ hasText: '王芳' });
    await todo.first().waitFor();
    await bothLanguages(leader, 'work-todo', (p) => p.getByTestId('work-todo').waitFor());
    await todo.first().getByTestId('work-handle').click();
    await leader.getByTestId('leave-handle').waitFor();
    expect(await leader.getByTestId('leave-reason').textContent()).toBe(REASON);
    await leader.locator('[data-testid="flow-diagram"][data-state="ready"]').waitFor();
    await leader.getByTestId('complete-comment').fill('同意，注意交接班级工作');
    await bothLanguages(leader, 'leave-handle', (p) => p.getByTestId('leave-handle').waitFor());
    await leader.getByTestId('complete-approve').click();
    await notification(leader, '已同意');
    await leader.getByTestId('work-todo').waitFor();
    await expect.poll(() => rowsOf(leader, 'work-todo').filter({ hasText: '王芳' }).count()).toBe(0);
  });

  it('the principal claims and approves (more than 3 days)', async () => {
    await signInToAffairs(principal, 'principal');
    await openMenu(principal, 'work_claim', '/work/claim/index', 'work-claim', 'work');
    const task = rowsOf(principal, 'work-claim').filter({ hasText: '园长审批' });
    await task.first().waitFor();
    await task.first().getByTestId('work-do-claim').click();
    await principal.getByTestId('claim-dialog-confirm').click();
    await notification(principal, '已签收');
    await openMenu(principal, 'work_todo', '/work/todo/index', 'work-todo', 'work');
    await rowsOf(principal, 'work-todo').filter({ hasText: '园长审批' }).first().getByTestId('work-handle').click();
    await principal.getByTestId('leave-handle').waitFor();
    await principal.getByTestId('complete-comment').fill('同意');
    await principal.getByTestId('complete-approve').click();
    await notification(principal, '已同意');
  });

  it('the teacher sees it done, with the highlighted diagram and the history', async () => {
    await openMenu(teacher, 'work_done', '/work/done/index', 'work-done', 'work');
    // 办结事务 holds what she handled and what she started that has ended: her request is the latter.
    await teacher.getByTestId('work-done-of').getByText('我发起的').click();
    const done = rowsOf(teacher, 'work-done').filter({ hasText: '请假流程（两级审批）' });
    await done.first().waitFor();
    expect(await done.first().textContent()).toContain('已办结');
    await bothLanguages(teacher, 'work-done', (p) => p.getByTestId('work-done').waitFor());
    await done.first().getByTestId('work-detail').click();
    await teacher.getByTestId('leave-detail').waitFor();
    const diagram = teacher.locator('[data-testid="flow-diagram"][data-state="ready"]');
    await diagram.waitFor();
    // Both approval steps and the end are drawn as done; nothing is current any more.
    await expect
      .poll(async () => (await diagram.getAttribute('data-done'))?.split(',').length ?? 0)
      .toBeGreaterThanOrEqual(4);
    expect(await diagram.getAttribute('data-current')).toBe('');
    const history = teacher.getByTestId('flow-history-row');
    await expect.poll(() => history.count()).toBeGreaterThanOrEqual(2);
    // The page may first show what it had cached while the request ran (the approval still open).
    await expect.poll(() => teacher.getByTestId('flow-history').textContent()).toContain('李静');
    const text = await teacher.getByTestId('flow-history').textContent();
    expect(text).toContain('陈晓燕');
    expect(text).toContain('同意，注意交接班级工作');
    expect(text).toContain('李静');
    await bothLanguages(teacher, 'leave-detail', (p) => p.getByTestId('leave-detail').waitFor());
  });

  it('on a phone (390×844) her work lists are cards: status and buttons in sight, nothing sideways', async () => {
    await teacher.setViewportSize({ width: 390, height: 844 });
    try {
      for (const [path, list] of [
        ['/work/send/index', 'work-send'],
        ['/work/done/index', 'work-done'],
      ] as const) {
        await teacher.goto(path);
        await teacher.getByTestId(list).waitFor();
        if (list === 'work-done') await teacher.getByTestId('work-done-of').getByText('我发起的').click();
        const row = rowsOf(teacher, list).filter({ hasText: '请假流程（两级审批）' }).first();
        await row.waitFor();
        // The records kit's card (a table row has no status cell of that name), its status beside the heading.
        expect(await row.getByTestId('list-row-status').textContent()).toContain('已办结');
        const button = await row.getByTestId('work-detail').boundingBox();
        expect(button && button.x >= 0 && button.x + button.width <= 390).toBe(true);
        expect(await teacher.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
        await quiet(teacher);
        await teacher.screenshot({ path: `${SHOTS}/${list}-phone-zh.png`, fullPage: true });
      }
    } finally {
      await teacher.setViewportSize({ width: 1440, height: 900 });
    }
  });

  it('no page error or refused resource on the way', () => {
    expect(errors.flat()).toEqual([]);
  });
});
