/// <reference lib="dom" />
// Browser globals appear inside page.evaluate callbacks, which run in the page.
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '../../services/core/src/permissions/demo';
import { type E2E, signIn, startE2E, watchErrors } from './support/app';
import { setLanguage } from './support/crud';

const TENANT = '100001';
const user = (account: string) => {
  const found = DEMO_ACCOUNTS.find((a) => a.account === account);
  if (!found) throw new Error(`no demo account ${account}`);
  return { tenant: TENANT, account, password: DEMO_PASSWORD, realName: found.realName };
};
const ONE = user('teacher1'); // 王芳, head teacher of 小一班
const TWO = user('teacher2'); // 刘洋, second teacher of 小一班
const REVIEWER = user('reviewer');

const SHOTS = process.env.SPROUT_SHOTS ?? '/work/shots/h3';
const snap = (page: Page, name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`) });
const status = (page: Page) => page.getByTestId('save-status').getAttribute('data-kind');
const cell = (page: Page, day: number, slot: string) => page.getByTestId(`day-cell-${day}-${slot}`);
const confirmButton = (page: Page) =>
  page
    .getByRole('dialog')
    .getByRole('button', { name: /确定|Confirm/ })
    .first();

/**
 * Issue 23, item 5 in the browser: 刘洋 types without pause in the live week while 王芳
 * submits it. The submit dialog names her; every character she typed is either in the
 * submitted version or offered back to her ("your text typed after the submit"), and after a
 * return she puts it back in place.
 */
describe('submitting while a co-author types', () => {
  let e2e: E2E;
  let one: Page;
  let two: Page;
  let reviewer: Page;
  let errors: string[][];
  let weekId = '';

  async function api<T>(page: Page, path: string, body?: unknown): Promise<T> {
    const token = await page.evaluate(() => JSON.parse(localStorage.getItem('sprout-token') ?? 'null')?.content);
    const response = await fetch(`${e2e.server.url}/api${path}`, {
      method: body ? 'POST' : 'GET',
      headers: {
        Authorization: `Basic ${Buffer.from('saber:saber_secret').toString('base64')}`,
        'Blade-Auth': `bearer ${token}`,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const answer = (await response.json()) as { data: T };
    expect(response.status, JSON.stringify(answer)).toBe(200);
    return answer.data;
  }

  beforeAll(async () => {
    e2e = await startE2E();
    one = await (await e2e.context()).newPage();
    two = await (await e2e.context()).newPage();
    reviewer = await (await e2e.context()).newPage();
    errors = [watchErrors(one), watchErrors(two)];
    await signIn(one, ONE);
    await signIn(two, TWO);
    await signIn(reviewer, REVIEWER);
    const page = await api<{ records: Array<{ id: string; className: string }> }>(
      one,
      '/week/week/list?current=1&size=100&status=draft',
    );
    weekId = page.records.find((r) => r.className === '小一班')?.id ?? '';
    expect(weekId).toMatch(/^\d+$/);
  });
  afterAll(async () => {
    await e2e?.close();
  });

  let before = '';
  let final = '';
  let pressed = 0;

  it('names who is editing in the submit dialog and submits while she types', async () => {
    for (const page of [one, two]) {
      await page.goto(`/week/week/?id=${weekId}`);
      await page.locator('[data-testid="week-editor"][data-collab="live"]').waitFor();
      await expect.poll(() => status(page), { timeout: 10_000 }).toBe('saved');
    }
    await expect.poll(() => one.locator(`[data-testid="collab-peer"][data-name="${TWO.realName}"]`).count()).toBe(1);

    const field = cell(two, 2, 'groupTeaching');
    await field.click();
    await two.keyboard.press('Control+End');
    before = await field.inputValue();
    // Counts in the page the characters that reached her field (a key pressed once it is disabled reaches nothing).
    await field.evaluate((el) => {
      const w = window as unknown as { typedChars: number };
      w.typedChars = 0;
      el.addEventListener('input', (e) => {
        w.typedChars += [...((e as InputEvent).data ?? '')].length;
      });
    });
    // 刘洋 types one character after another until her editor locks (or 4000 of them).
    const typing = (async () => {
      while (pressed < 4000 && !(await field.isDisabled())) {
        await two.keyboard.type(String.fromCharCode(0x4e00 + (pressed % 300)));
        pressed++;
      }
    })();
    await expect.poll(() => pressed, { timeout: 10_000 }).toBeGreaterThan(15);

    await one.getByTestId('week-submit').click();
    const named = one.getByTestId('submit-editors');
    await named.waitFor();
    expect(await named.getAttribute('data-names')).toBe(TWO.realName);
    expect(await one.getByRole('dialog').textContent()).toContain(`${TWO.realName} 正在编辑这份备课`);
    await snap(one, 'submit-dialog-editors-zh');
    await expect.poll(() => pressed).toBeGreaterThan(30);
    await confirmButton(one).click();
    await one.waitForURL(`**/weekdetails/details?id=${weekId}`);

    await typing;
    expect(await field.isDisabled()).toBe(true);
    final = await field.inputValue();
    expect(final.startsWith(before)).toBe(true);
    // Every character that reached her field is in her editor's document.
    const typedChars = await two.evaluate(() => (window as unknown as { typedChars: number }).typedChars);
    expect(typedChars).toBeGreaterThan(30);
    expect(pressed - typedChars).toBeLessThanOrEqual(1);
    expect(final.length - before.length).toBe(typedChars);
  });

  it('keeps every character: in the submitted version or offered back to her', async () => {
    const detail = await api<{ status: string; content: { days: Array<Record<string, string>> } }>(
      one,
      `/week/week/alllistForId?id=${weekId}`,
    );
    expect(detail.status).toBe('trial');
    const submitted = detail.content.days[2]?.groupTeaching ?? '';
    expect(submitted.startsWith(before)).toBe(true);

    await expect.poll(() => status(two), { timeout: 10_000 }).toBe('readOnly');
    const offer = two.getByTestId('late-text');
    await offer.waitFor({ timeout: 10_000 });
    const typed = final.slice(before.length);
    const kept = submitted.slice(before.length);
    const addedNow = async () =>
      (await two
        .locator('[data-testid="late-field"][data-path="days.2.groupTeaching"] [data-testid="late-added"]')
        .textContent()) ?? '';
    // The offer is asked again once her device's last changes are kept (what she typed while her
    // editor reconnected read-only is stored a moment after the first answer): it comes to hold
    // every character the submission does not.
    const first = (await addedNow()).length;
    await expect.poll(async () => kept.length + (await addedNow()).length, { timeout: 20_000 }).toBe(typed.length);
    const added = await addedNow();
    console.log(
      `typed ${typed.length} (pressed ${pressed}): ${kept.length} in the submission + ${added.length} offered back (${first} in the first answer)`,
    );
    // Counted: every character typed is kept, in the submission or offered back, none twice.
    expect(kept.length + added.length).toBe(typed.length);
    expect(kept + added).toBe(typed);
    expect(Number(await offer.getAttribute('data-chars'))).toBe(added.length);
    // In review she can copy it; putting back waits for a return.
    expect(await two.getByTestId('late-put-back').count()).toBe(0);
    await offer.scrollIntoViewIfNeeded();
    await snap(two, 'late-text-review-zh');
  });

  it('after a return offers it back in English on her other device; she puts it back in place', async () => {
    // She closed the page (her device would otherwise send its copy again once editable) and
    // opens the week on another computer after the return.
    await two.context().close();
    await api(reviewer, '/week/week/review', { id: weekId, action: 'return', comment: '请补充集体教学' });
    two = await (await e2e.context()).newPage();
    errors.push(watchErrors(two));
    await signIn(two, TWO);
    await setLanguage(two, 'en');
    await two.goto(`/week/week/?id=${weekId}`);
    await two.locator('[data-testid="week-editor"][data-collab="live"]').waitFor();
    await expect.poll(() => status(two), { timeout: 10_000 }).toBe('saved');
    const putBack = two.getByTestId('late-put-back');
    await putBack.waitFor({ timeout: 10_000 });
    await expect.poll(() => two.getByTestId('late-text').textContent()).toContain('Your text typed after the submit');
    await two.getByTestId('late-text').scrollIntoViewIfNeeded();
    await snap(two, 'late-text-returned-en');

    // The submit dialog in English names her too.
    await setLanguage(one, 'en');
    await one.goto(`/week/week/?id=${weekId}`);
    await one.locator('[data-testid="week-editor"][data-collab="live"]').waitFor();
    await expect.poll(() => one.locator(`[data-testid="collab-peer"][data-name="${TWO.realName}"]`).count()).toBe(1);
    await one.getByTestId('week-submit').click();
    await one.getByTestId('submit-editors').waitFor();
    expect(await one.getByRole('dialog').textContent()).toContain(`${TWO.realName} is editing this week now`);
    await snap(one, 'submit-dialog-editors-en');
    await one
      .getByRole('dialog')
      .getByRole('button', { name: /Cancel/ })
      .click();

    await putBack.click();
    await expect.poll(() => cell(two, 2, 'groupTeaching').inputValue()).toBe(final);
    await expect.poll(() => two.getByTestId('late-text').count()).toBe(0);
    await expect.poll(() => cell(one, 2, 'groupTeaching').inputValue(), { timeout: 5000 }).toBe(final);
    const left = await api<{ fields: unknown[] }>(two, `/week/week/lateText?id=${weekId}`);
    expect(left.fields).toEqual([]);
    expect(errors).toEqual([[], [], []]);
  });
});
