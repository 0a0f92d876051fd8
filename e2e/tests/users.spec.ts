import type { Browser, Page } from '@playwright/test';
import { expect, expectPath, openMenu, test } from '../fixtures';
import { csrfHeader } from './stock-helpers';
import { inboxMail } from './mail-inbox';
import { chooseOwnPassword } from './user-helpers';

// Users administration (spec section 2 Users, section 5 User edit): an admin creates a client user with two
// stock rows through the editor, and that user sees exactly the tabs the rows grant. The demo stocks BHP:ASX
// and CSL:ASX are the rows; only the new users' own records change.

const run = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;

/** A browser context of its own (no shared session), at the login page. */
async function freshLoginPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  const page = await context.newPage();
  await page.goto('/login');
  return page;
}

async function signInAs(page: Page, username: string, password: string): Promise<void> {
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
}

/** Types into 'Choose Company', picks the company whose option starts with the ticker, and adds its row. */
async function addCompanyRow(page: Page, combinedTicker: string, { phone = false } = {}): Promise<void> {
  await page.getByRole('textbox', { name: 'Choose Company' }).fill(combinedTicker.split(':')[0] ?? '');
  await page.getByRole('option', { name: new RegExp(`^${combinedTicker} `) }).click();
  await page.getByRole('button', { name: 'Add Row' }).click();
  // A table on a desktop, a list of cards on a phone.
  const rows = page.getByRole(phone ? 'list' : 'table', { name: 'Permissions' });
  await expect(rows.getByText(combinedTicker, { exact: true })).toBeVisible();
}

/** Waits for the next window.alert, accepts it, and gives its text. */
function nextAlert(page: Page): Promise<string> {
  return new Promise((resolve) => {
    page.once('dialog', (dialog) => {
      resolve(dialog.message());
      void dialog.accept();
    });
  });
}

test.describe('users administration', () => {
  test('an admin creates a client user with two stock rows; that user sees exactly the granted tabs', async ({
    page,
    signIn,
    browser,
  }) => {
    const username = `e2e-client-${run()}`;
    const password = `Harbour-${run()}-Kestrel`;
    await signIn('admin');
    await page.goto('/users');
    await page.getByRole('link', { name: 'Add New User' }).click();
    await expectPath(page, '/users/new');
    await expect(page.getByRole('heading', { name: 'Add New User' })).toBeVisible();

    await page.getByRole('textbox', { name: 'Username' }).fill(username);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await addCompanyRow(page, 'BHP:ASX');
    await addCompanyRow(page, 'CSL:ASX');
    const table = page.getByRole('table', { name: 'Permissions' });
    await table.getByRole('checkbox', { name: 'Config on BHP:ASX' }).check();
    await table.getByRole('checkbox', { name: 'Comments on BHP:ASX' }).check();
    await table.getByRole('checkbox', { name: 'Announcements on CSL:ASX' }).check();
    await page.getByRole('button', { name: 'Save' }).click();

    // A new user's save goes to the returned id's page, where the username is no longer editable.
    await expect.poll(() => new URL(page.url()).pathname).toMatch(/^\/users\/[0-9a-f-]{36}$/);
    await expect(page.getByRole('heading', { name: 'Edit User' })).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Username' })).toHaveValue(username);
    await expect(page.getByRole('textbox', { name: 'Username' })).toBeDisabled();
    await expect(page.getByLabel('Password', { exact: true })).toHaveValue('');
    await expect(table.getByRole('checkbox', { name: 'Comments on BHP:ASX' })).toBeChecked();
    // The admin sees the history: the creation, by admin.
    await expect(page.getByRole('table', { name: 'History' })).toContainText(`Created as ${username}`);

    // Blank password leaves it unchanged: a second save (one more role) with the field left empty.
    await table.getByRole('checkbox', { name: 'Email Marketing on CSL:ASX' }).check();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('button', { name: 'Saved!' })).toBeVisible();
    await expect(page.getByRole('table', { name: 'History' })).toContainText('CSL:ASX: +Email Marketing');

    // The list links to the new user.
    await page.goto('/users');
    await expect(
      page.getByRole('list', { name: 'Users' }).getByRole('link', { name: username }),
    ).toBeVisible();

    // The new user signs in with the password the admin set: it is one-time (issue 34). The server refuses
    // anything but choosing a new one, and the app asks for it before the page.
    const client = await freshLoginPage(browser);
    await signInAs(client, username, password);
    await expect(client.getByRole('dialog', { name: 'Choose a new password' })).toBeVisible();
    const refused = await client.request.get('/api/clientDashboard/');
    expect([refused.status(), (await refused.json()).errorMessage]).toEqual([
      403,
      'Your password was set by someone else: choose a new one (Change Password) before going on',
    ]);
    await expect(client.getByRole('heading', { name: 'Client Dashboard' })).toHaveCount(0);
    await chooseOwnPassword(client, password, `${password}-own`);
    // Then the page, the two stocks and the granted tabs.
    await expect(client.getByRole('heading', { name: 'Client Dashboard' })).toBeVisible();
    expect((await client.request.get('/api/clientDashboard/')).status()).toBe(200);
    // The dashboard names an ASX stock by its bare ticker.
    await expect(client.getByRole('link', { name: 'BHP', exact: true })).toHaveAttribute(
      'href',
      '/client-stocks/BHP:ASX',
    );
    await expect(client.getByRole('link', { name: 'CSL', exact: true })).toHaveAttribute(
      'href',
      '/client-stocks/CSL:ASX',
    );
    await client.goto('/client-stocks/BHP:ASX');
    await expect(client.getByRole('tab')).toHaveText(['Config', 'Comments']);
    await client.goto('/client-stocks/CSL:ASX');
    await expect(client.getByRole('tab')).toHaveText(['Announcements', 'Email marketing']);
    // Not a user administrator: no Users in the menu, and /users is not allowed.
    await expect((await openMenu(client)).getByRole('link', { name: 'Users' })).toHaveCount(0);
    await client.context().close();
  });

  test("the editor's two alerts: no company chosen, and a company already in the table", async ({
    page,
    signIn,
  }) => {
    await signIn('useradmin');
    await page.goto('/users/new');
    let alert = nextAlert(page);
    await page.getByRole('button', { name: 'Add Row' }).click();
    expect(await alert).toBe('Please select a Company');

    await addCompanyRow(page, 'BHP:ASX');
    await page.getByRole('textbox', { name: 'Choose Company' }).fill('BHP');
    await page.getByRole('option', { name: /^BHP:ASX / }).click();
    alert = nextAlert(page);
    await page.getByRole('button', { name: 'Add Row' }).click();
    expect(await alert).toBe('Row with this Company already exists');
    await expect(page.getByRole('table', { name: 'Permissions' }).locator('tbody tr')).toHaveCount(1);

    // A refused save alerts the server's errorMessage: a new user needs a password.
    await page.getByRole('textbox', { name: 'Username' }).fill(`e2e-nopass-${run()}`);
    alert = nextAlert(page);
    await page.getByRole('button', { name: 'Save' }).click();
    expect(await alert).toBe('A password is required for a new user');
    await expectPath(page, '/users/new');
  });

  test('a user changes their own password from the header menu', async ({ page, signIn, browser }) => {
    // The user is made through the API (the editor is the test above's business).
    await signIn('admin');
    await page.goto('/');
    // An address as the username: the user is mailed when their password changes (issue 34).
    const username = `e2e-own-${run()}@example.com`;
    const oldPassword = `Tasman-${run()}-Ridge`;
    const newPassword = `Coral-${run()}-Reef`;
    const adminPassword = `Admin-Set-${run()}-Cove`;
    const created = await page.request.post('/api/users/new', {
      headers: await csrfHeader(page),
      data: {
        username,
        password: adminPassword,
        permissions: [{ combinedTicker: 'BHP:ASX', roles: ['ViewConfig'] }],
      },
    });
    expect(created.status(), await created.text()).toBe(200);

    const user = await freshLoginPage(browser);
    await signInAs(user, username, adminPassword);
    // The admin's password is one-time: the user chooses their own first, then changes it again at will.
    await chooseOwnPassword(user, adminPassword, oldPassword);
    await expect(user.getByRole('heading', { name: 'Client Dashboard' })).toBeVisible();
    const notice = await inboxMail(user, username, { containing: 'You changed your IR Portal password' });
    expect(notice.subject).toBe('Your IR Portal password was changed');
    await (await openMenu(user)).getByRole('button', { name: 'Change Password' }).click();
    const dialog = user.getByRole('dialog', { name: 'Change Password' });
    await dialog.getByLabel(/^Current password/).fill('not-my-password');
    await dialog.getByLabel(/^New password/).fill(newPassword);
    await dialog.getByLabel(/^Confirm new password/).fill(newPassword);
    await dialog.getByRole('button', { name: 'Change Password' }).click();
    await expect(dialog.getByRole('alert')).toHaveText('The current password is not right');
    await dialog.getByLabel(/^Current password/).fill(oldPassword);
    await dialog.getByRole('button', { name: 'Change Password' }).click();
    await expect(dialog.getByRole('status')).toContainText('Your password has been changed');
    await dialog.getByRole('button', { name: 'OK' }).click();
    // This session stays.
    await user.reload();
    await expect(user.getByRole('heading', { name: 'Client Dashboard' })).toBeVisible();

    // Signed out: the old password is refused, the new one signs in.
    await (await openMenu(user)).getByRole('button', { name: 'Logout' }).click();
    await expectPath(user, '/login');
    await signInAs(user, username, oldPassword);
    await expect(user.getByText('Invalid username/password')).toBeVisible();
    await signInAs(user, username, newPassword);
    await expect(user.getByRole('heading', { name: 'Client Dashboard' })).toBeVisible();
    await user.context().close();
  });

  test('fits: the editor on a phone, and the admin header (with Change Password) at the narrowest desktop width', async ({
    page,
    signIn,
  }) => {
    await signIn('admin');
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    // The header leaves the burger for the full menu from 62em (992 px) up.
    await page.setViewportSize({ width: 992, height: 800 });
    await page.goto('/users/new');
    const banner = page.getByRole('banner');
    await expect(banner.getByRole('button', { name: 'Change Password' })).toBeVisible();
    await expect(banner.getByRole('button', { name: 'Logout' })).toBeInViewport();
    expect(await overflow()).toBeLessThanOrEqual(0);

    await page.setViewportSize({ width: 390, height: 844 });
    await addCompanyRow(page, 'BHP:ASX', { phone: true });
    await expect(page.getByRole('checkbox', { name: 'Invoicing on BHP:ASX' })).toBeVisible();
    expect(await overflow()).toBeLessThanOrEqual(0);
  });
});
