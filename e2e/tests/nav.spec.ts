import { expect, expectPath, openMenu, test } from '../fixtures';

test.describe('top navigation', () => {
  test('is hidden when signed out', async ({ page }) => {
    await page.goto('/login');
    await expect(page.getByRole('button', { name: 'Login' })).toBeVisible();
    await expect(page.getByRole('banner')).toHaveCount(0);

    await page.goto('/no-such-page');
    await expect(page.getByText('Page not found!')).toBeVisible();
    await expect(page.getByRole('banner')).toHaveCount(0);
  });

  test('shows on / when signed in and hides on /login, /report/* and /new-order', async ({
    page,
    signIn,
  }) => {
    await signIn('admin');
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Staff Dashboard' })).toBeVisible();
    await expect(page.getByRole('banner')).toBeVisible();

    await page.goto('/report/x');
    await expect(page.getByRole('heading', { name: 'Report' })).toBeVisible();
    await expect(page.getByRole('banner')).toHaveCount(0);

    await page.goto('/new-order');
    await expect(page.getByRole('heading', { name: 'Order Form' })).toBeVisible();
    await expect(page.getByRole('banner')).toHaveCount(0);

    await page.goto('/login');
    await expect(page.getByRole('button', { name: 'Login' })).toBeVisible();
    await expect(page.getByRole('banner')).toHaveCount(0);
  });

  test('a page reload keeps the user signed in', async ({ page, signIn }) => {
    await signIn('admin');
    await page.goto('/referers');
    await expect(await openMenu(page)).toContainText('Logged in as admin');

    await page.reload();
    await expectPath(page, '/referers');
    await expect(page.getByRole('heading', { name: 'Referers' })).toBeVisible();
    await expect(await openMenu(page)).toContainText('Logged in as admin');
  });

  test('logout returns to /login and protected pages redirect again', async ({ page, signInFresh }) => {
    await signInFresh('client');
    await page.goto('/referers');
    await expect(page.getByRole('heading', { name: 'Referers' })).toBeVisible();

    const menu = await openMenu(page);
    await menu.getByRole('button', { name: 'Logout' }).click();
    await expectPath(page, '/login');
    await expect(page.getByRole('banner')).toHaveCount(0);

    await page.goto('/referers');
    await expectPath(page, '/login');
    await expect(page.getByRole('button', { name: 'Login' })).toBeVisible();

    // The server ended the session too: a fresh start (refresh call) still finds nobody signed in.
    await page.goto('/');
    await expectPath(page, '/login');
  });
});
