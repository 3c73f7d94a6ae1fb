/// <reference lib="dom" />
// Browser globals appear inside page.evaluate callbacks, which run in the page.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2E, shot, signIn, startE2E, waitForMenu, watchErrors } from './support/app';

const THEMES = ['default', 'white', 'dark', 'star', 'bule', 'iview', 'vip', 'cool', 'd2', 'hey', 'lte'];

async function tabPaths(page: Page): Promise<string[]> {
  return page.getByTestId('tab').evaluateAll((tabs) => tabs.map((t) => t.getAttribute('data-path') ?? ''));
}

async function confirmModal(page: Page) {
  await page
    .getByRole('dialog')
    .getByRole('button', { name: /确定|Confirm/ })
    .click();
}

/** The frame: menus and tabs, menu search, language and themes. One signed-in page for the whole file. */
describe('web shell: layout', () => {
  let e2e: E2E;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    e2e = await startE2E();
    const context = await e2e.context();
    page = await context.newPage();
    errors = watchErrors(page);
    await signIn(page);
    await waitForMenu(page);
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it('navigates the dynamic menu, opens tabs, closes others and all from the right-click menu', async () => {
    await page.waitForTimeout(300);
    await shot(page, 'home');
    await page.getByTestId('menu-lesson').click();
    await page.getByTestId('menu-week_mine').click();
    await page.waitForURL('**/week/mine/index');
    await expect.poll(() => page.getByTestId('page-title').textContent()).toBe('我的备课');
    await page.getByTestId('menu-week_trial').click();
    await page.waitForURL('**/week/trial/index');
    await page.getByTestId('menu-system').click();
    await page.getByTestId('menu-user').click();
    await page.waitForURL('**/system/user/index');
    await expect
      .poll(() => tabPaths(page))
      .toEqual(['/wel/index', '/week/mine/index', '/week/trial/index', '/system/user/index']);
    await expect.poll(() => page.locator('[data-testid="tab"][data-active]').textContent()).toBe('用户管理');

    // Switching by tab keeps the tab list and follows the route.
    await page.locator('[data-testid="tab"][data-path="/week/mine/index"]').click();
    await page.waitForURL('**/week/mine/index');

    // Right-click the "plans to review" tab → close others (confirmed).
    await page.locator('[data-testid="tab"][data-path="/week/trial/index"]').click({ button: 'right' });
    await page.getByTestId('tab-context-menu').getByTestId('tab-close-others').click();
    await confirmModal(page);
    await expect.poll(() => tabPaths(page)).toEqual(['/wel/index', '/week/trial/index']);
    await page.waitForURL('**/week/trial/index');

    // A tab's close button.
    await page.getByTestId('menu-user').click();
    await page.waitForURL('**/system/user/index');
    await page.locator('[data-testid="tab"][data-path="/system/user/index"] [data-testid="tab-close"]').click();
    await page.waitForURL((url) => url.pathname !== '/system/user/index');
    await expect.poll(() => tabPaths(page)).toEqual(['/wel/index', '/week/trial/index']);

    // Close all → only home.
    await page.locator('[data-testid="tab"][data-path="/week/trial/index"]').click({ button: 'right' });
    await page.getByTestId('tab-context-menu').getByTestId('tab-close-all').click();
    await confirmModal(page);
    await page.waitForURL('**/wel/index');
    await expect.poll(() => tabPaths(page)).toEqual(['/wel/index']);
  });

  it('switches the sidebar with the top menu', async () => {
    await page.getByTestId('top-menu-top_system').click();
    await page.getByTestId('menu-system').waitFor();
    await expect.poll(() => page.getByTestId('menu-lesson').count()).toBe(0);
    await page.getByTestId('top-menu-top_teaching').click();
    await page.getByTestId('menu-lesson').waitFor();
    await expect.poll(() => page.getByTestId('menu-system').count()).toBe(0);
    await page.getByTestId('top-menu').getByText('首页').click();
    await page.getByTestId('menu-system').waitFor();
    await page.getByTestId('menu-lesson').waitFor();
  });

  it('keeps a kept-alive page’s state across tab switches', async () => {
    await page.goto('/test/index');
    await page.getByTestId('test-notes').fill('still here');
    await page.locator('[data-testid="tab"][data-path="/wel/index"]').click();
    await page.waitForURL('**/wel/index');
    await page.locator('[data-testid="tab"][data-path="/test/index"]').click();
    await page.waitForURL('**/test/index');
    expect(await page.getByTestId('test-notes').inputValue()).toBe('still here');
  });

  it('searches menus by prefix in the 菜单搜索 overlay and the top search', async () => {
    await page.getByTestId('open-menu-search').click();
    const input = page.getByTestId('menu-search-input');
    await input.waitFor();
    await page.getByText('菜单搜索', { exact: true }).waitFor();
    await expect.poll(() => page.getByTestId('menu-search-hint').textContent()).toContain('Esc');
    await input.fill('用');
    await expect
      .poll(() => page.getByTestId('menu-search-result').allTextContents())
      .toEqual([expect.stringContaining('用户管理')]);
    await shot(page, 'menu-search');
    await input.fill('管理'); // 用户管理 contains it but does not start with it
    await expect.poll(() => page.getByTestId('menu-search-result').count()).toBe(0);
    await page.keyboard.press('Escape');
    await expect.poll(() => input.isVisible()).toBe(false);

    await page.getByTestId('open-menu-search').click();
    await input.fill('待审核');
    await expect.poll(() => page.getByTestId('menu-search-result').count()).toBe(2); // plans and observations
    await page.getByTestId('menu-search-result').first().click();
    await page.waitForURL('**/week/trial/index');

    const top = page.getByTestId('top-search');
    await top.fill('教研');
    await page.getByTestId('top-search-option').first().click();
    await page.waitForURL('**/teacher_research/listResearch/index');
  });

  it('logs uncaught errors with a capped badge, uploads (showing the server’s answer) and clears, both confirmed', async () => {
    await page.goto('/test/index');
    await page.getByTestId('test-throw').click();
    await page.getByTestId('test-reject').click();
    await expect.poll(() => page.getByTestId('error-log-badge').textContent()).toContain('2');
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('sprout-error-log') ?? '{}').content);
    expect(stored).toHaveLength(2);
    expect(Object.keys(stored[0]).sort()).toEqual(['info', 'message', 'stack', 'time', 'type', 'url']);
    expect(stored.map((e: { type: string }) => e.type).sort()).toEqual(['error', 'unhandledrejection']);
    expect(stored[0].time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);

    // 150 entries: the badge says 99+.
    await page.evaluate(() => {
      const entry = {
        type: 'error',
        message: 'x',
        stack: '',
        info: '',
        url: location.href,
        time: '2026-01-01 00:00:00',
      };
      const record = { dataType: 'object', type: 'local', datetime: Date.now(), content: Array(150).fill(entry) };
      localStorage.setItem('sprout-error-log', JSON.stringify(record));
    });
    await page.reload();
    await waitForMenu(page);
    await expect.poll(() => page.getByTestId('error-log-badge').textContent()).toContain('99+');

    await page.getByTestId('error-log-open').click();
    const uploaded = page.waitForResponse('**/api/blade-log/error/upload');
    await page.getByTestId('error-log-upload').click();
    await confirmModal(page);
    const response = await uploaded;
    expect(response.request().postDataJSON().logs).toHaveLength(150);
    expect(((await response.json()) as { code: number }).code).toBe(200);
    await page.getByText('日志上传成功').waitFor();
    // The server has them (issue 17): the local log and its badge are cleared.
    await page.getByTestId('error-log-dialog').getByText('一切正常，没有错误记录').waitFor();
    await expect.poll(() => page.getByTestId('error-log-badge').textContent()).not.toContain('99');
    await page.keyboard.press('Escape');

    // Clearing without uploading, confirmed.
    await page.goto('/test/index');
    await page.getByTestId('test-throw').click();
    await expect.poll(() => page.getByTestId('error-log-badge').textContent()).toContain('1');
    await page.getByTestId('error-log-open').click();
    await page.getByTestId('error-log-clear').click();
    await confirmModal(page);
    await page.getByText('本地日志已清空').waitFor();
    await expect.poll(() => page.getByTestId('error-log-badge').textContent()).not.toContain('1');
    await page.keyboard.press('Escape');
    errors.length = 0; // the two errors above were made on purpose
  });

  it('shows a clear error when a page’s chunk cannot be loaded', async () => {
    await page.goto('/wel/index');
    await waitForMenu(page);
    await page.route('**/assets/TutorialPage-*.js', (route) => route.abort());
    await page.getByTestId('open-tutorial').click();
    await page.getByText('页面加载失败').waitFor();
    await page.unroute('**/assets/TutorialPage-*.js');
    await page.reload();
    await page.getByTestId('tutorial-page').waitFor();
    await shot(page, 'tutorial');
    await page.goto('/wel/dashboard');
    await page.getByTestId('dashboard-page').waitFor();
    await shot(page, 'dashboard');
  });

  it('collapses the sidebar after choosing a menu item on a narrow screen (size ≤ 1)', async () => {
    await page.goto('/wel/index');
    await waitForMenu(page);
    await page.setViewportSize({ width: 900, height: 800 });
    await expect.poll(() => page.evaluate(() => localStorage.getItem('sprout-collapse'))).toContain('true');
    await page.getByTestId('toggle-sidebar').click();
    await expect.poll(() => page.getByTestId('sidebar-logo').textContent()).toContain('萌芽教学管理平台');
    await page.getByTestId('menu-lesson').click();
    await page.getByTestId('menu-week_favorite').click();
    await page.waitForURL('**/week/favorite/index');
    await expect.poll(() => page.getByTestId('sidebar-logo').textContent()).toBe('');
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.getByTestId('toggle-sidebar').click();
  });

  it('switches to English, disables the current language, and keeps it after a reload', async () => {
    await page.goto('/wel/index');
    await waitForMenu(page);
    await page.getByTestId('language-menu').click();
    expect(await page.getByTestId('language-zh').isDisabled()).toBe(true);
    await page.getByTestId('language-en').click();
    await expect.poll(() => page.getByTestId('menu-lesson').textContent()).toContain('Lesson planning');
    await page.reload();
    await waitForMenu(page);
    await expect.poll(() => page.getByTestId('menu-lesson').textContent()).toContain('Lesson planning');
    await expect.poll(() => page.locator('[data-testid="tab"][data-active]').textContent()).toBe('Home');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    expect(await page.evaluate(() => localStorage.getItem('sprout-language'))).toBe('en');
    expect(await page.evaluate(() => document.cookie)).toContain('language=en');
    await page.getByTestId('language-menu').click();
    expect(await page.getByTestId('language-en').isDisabled()).toBe(true);
    await page.keyboard.press('Escape');

    // Prefix search is case-insensitive.
    await page.getByTestId('open-menu-search').click();
    await page.getByTestId('menu-search-input').fill('us');
    await expect
      .poll(() => page.getByTestId('menu-search-result').allTextContents())
      .toEqual([expect.stringContaining('Users')]);
    await page.keyboard.press('Escape');
    await page.waitForTimeout(300);
    await shot(page, 'english-home');

    await page.getByTestId('language-menu').click();
    await page.getByTestId('language-zh').click();
    await expect.poll(() => page.getByTestId('menu-lesson').textContent()).toContain('备课管理');
  });

  it('applies every theme, and keeps the chosen theme and colour after a reload', async () => {
    await page.goto('/wel/index');
    await waitForMenu(page);
    for (const theme of THEMES) {
      await page.getByTestId('theme-menu').click();
      await page.getByTestId(`theme-${theme}`).click();
      await page.keyboard.press('Escape');
      await expect.poll(() => page.evaluate(() => document.documentElement.dataset.sproutTheme)).toBe(theme);
      await shot(page, `theme-${theme}`);
    }
    await page.getByTestId('theme-menu').click();
    await page.getByTestId('theme-dark').click();
    await page.keyboard.press('Escape');
    await page.getByTestId('color-picker').click();
    await page.getByTestId('color-hex').fill('#11A983');
    await page.getByTestId('color-apply').click();
    await page.keyboard.press('Escape');
    await page.reload();
    await waitForMenu(page);
    expect(await page.evaluate(() => document.documentElement.dataset.sproutTheme)).toBe('dark');
    expect(await page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'))).toBe('dark');
    expect(await page.evaluate(() => localStorage.getItem('sprout-color'))).toBe('#11A983');
    const primary = await page.evaluate(() =>
      getComputedStyle(document.documentElement).getPropertyValue('--mantine-primary-color-filled').trim(),
    );
    expect(primary.toLowerCase()).toBe('#11a983');
    expect(errors).toEqual([]);
  });
});
