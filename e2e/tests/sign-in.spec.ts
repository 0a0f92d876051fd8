import { expect, expectPath, signInViaUi, test } from '../fixtures';

test.describe('sign-in', () => {
  test('signs in and shows who is signed in', async ({ page }) => {
    await page.goto('/login');
    await expect(page.getByRole('banner')).toHaveCount(0);
    await signInViaUi(page, 'admin');

    await expectPath(page, '/');
    await expect(page.getByText('Logged in as admin')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Staff Dashboard' })).toBeVisible();
  });

  test('shows "Invalid username/password" and re-enables the form on a wrong password', async ({ page }) => {
    await page.goto('/login');
    await signInViaUi(page, 'useradmin', 'not-the-password');

    await expect(page.getByText('Invalid username/password')).toBeVisible();
    await expect(page.getByLabel('Username')).toBeEnabled();
    await expect(page.getByLabel('Password', { exact: true })).toBeEnabled();
    await expect(page.getByRole('button', { name: 'Login' })).toBeEnabled();
    await expectPath(page, '/login');
    await expect(page.getByRole('banner')).toHaveCount(0);
  });
});
