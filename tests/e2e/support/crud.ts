import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * What the console screens' browser journeys share: the CRUD kit's parts by their test ids,
 * notifications, and the language menu.
 */
export const table = (page: Page) => page.getByTestId('crud-table');
export const rowsIn = (scope: Page | Locator) => scope.locator('tbody tr[data-testid^="crud-row-"]');
export const rows = (page: Page) => rowsIn(table(page));
/** The table row whose cells show this text. */
export const rowWith = (page: Page, text: string) => rows(page).filter({ hasText: text });
export const dialog = (page: Page) => page.getByRole('dialog');
export const field = (scope: Page | Locator, prop: string) => scope.getByTestId(`crud-field-${prop}`);

/** Waits for a notification saying `text`. */
export async function notification(page: Page, text: string) {
  await page.locator('.mantine-Notification-root').filter({ hasText: text }).first().waitFor();
}

/** Closes the notifications on screen (before a screenshot), however they come and go meanwhile. */
export async function quiet(page: Page) {
  const notes = page.locator('.mantine-Notification-root');
  await expect
    .poll(
      async () => {
        // One still sliding in is not stable yet, one closing is detached: either way, try again.
        if ((await notes.count()) > 0)
          await notes
            .first()
            .locator('button')
            .click({ timeout: 2000 })
            .catch(() => undefined);
        return notes.count();
      },
      { timeout: 20_000 },
    )
    .toBe(0);
}

/** Switches the app's language through the top bar's menu. */
export async function setLanguage(page: Page, language: 'en' | 'zh') {
  await page.getByTestId('language-menu').click();
  await page.getByTestId(`language-${language}`).click();
}

/** Opens a screen through its menu entry (its section first, when folded) and waits for it. */
export async function openMenu(page: Page, code: string, path: string, testId: string, section = 'system') {
  const entry = page.getByTestId(`menu-${code}`);
  if (!(await entry.isVisible())) await page.getByTestId(`menu-${section}`).click();
  await entry.click();
  await page.waitForURL(`**${path}`);
  await page.getByTestId(testId).waitFor();
  expect(await page.getByTestId('coming-soon').count()).toBe(0);
}
