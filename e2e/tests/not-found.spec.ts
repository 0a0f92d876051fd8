import { expect, expectPath, test } from '../fixtures';

test.describe('not found', () => {
  test('an unknown path shows "Page not found!" and the link goes home', async ({ page, signIn }) => {
    await signIn('admin');
    await page.goto('/no-such-page');
    await expect(page.getByText('Page not found!')).toBeVisible();

    await page.getByRole('link', { name: 'Go to the home page' }).click();
    await expectPath(page, '/');
    await expect(page.getByRole('heading', { name: 'Staff Dashboard' })).toBeVisible();
  });

  test('signed out, the not-found screen still shows and home asks for a sign-in', async ({ page }) => {
    await page.goto('/no-such-page');
    await expect(page.getByText('Page not found!')).toBeVisible();
    await page.getByRole('link', { name: 'Go to the home page' }).click();
    await expectPath(page, '/login');
  });
});
