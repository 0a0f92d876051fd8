import type { Browser, Page } from '@playwright/test';
import { expect, test } from '../fixtures';
import { csrfHeader } from './stock-helpers';

/** What POST /api/users/new takes besides the name and password: staff roles and per-stock rows. */
interface NewUserRoles {
  roles?: string[];
  permissions: { combinedTicker: string; roles: string[] }[];
}

/**
 * The first sign-in of a user whose password someone else set: the app asks for a new one before anything
 * else (issue 34); `newPassword` is chosen, and the page asked for opens.
 */
export async function chooseOwnPassword(page: Page, current: string, newPassword: string): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'Choose a new password' });
  await expect(dialog).toContainText('Your password was set by someone else');
  await dialog.getByLabel(/^Current password/).fill(current);
  await dialog.getByLabel(/^New password/).fill(newPassword);
  await dialog.getByLabel(/^Confirm new password/).fill(newPassword);
  await dialog.getByRole('button', { name: 'Change Password' }).click();
  await expect(dialog).toHaveCount(0);
}

/**
 * A user holding exactly `grants`, made through POST /api/users/new with the admin's session (the editor
 * is users.spec's business), then signed in on a page of a browser context of its own, having chosen its
 * own password (the admin's is one-time).
 */
export async function signedInNewUser(
  admin: Page,
  browser: Browser,
  prefix: string,
  grants: NewUserRoles,
): Promise<Page> {
  const run = Date.now().toString(36);
  const username = `e2e-${prefix}-${run}`;
  const password = `Harbour-${run}-Kestrel`;
  const created = await admin.request.post('/api/users/new', {
    headers: await csrfHeader(admin),
    data: { username, password, ...grants },
  });
  expect(created.status(), await created.text()).toBe(200);
  const context = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  const page = await context.newPage();
  await page.goto('/login');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
  await chooseOwnPassword(page, password, `Own-${run}-Harbour`);
  return page;
}
