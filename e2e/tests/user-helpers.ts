import type { Browser, Page } from '@playwright/test';
import { expect, test } from '../fixtures';
import { csrfHeader } from './stock-helpers';

/** What POST /api/users/new takes besides the name and password: staff roles and per-stock rows. */
interface NewUserRoles {
  roles?: string[];
  permissions: { combinedTicker: string; roles: string[] }[];
}

/**
 * A user holding exactly `grants`, made through POST /api/users/new with the admin's session (the editor
 * is users.spec's business), then signed in on a page of a browser context of its own.
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
  return page;
}
