import { expect, expectPath, signInViaUi, test } from '../fixtures';

test('a signed-out visitor of a protected page signs in and lands back on it', async ({ page }) => {
  await page.goto('/referers?sort=count');
  await expectPath(page, '/login');
  await expect(page.getByRole('button', { name: 'Login' })).toBeVisible();

  await signInViaUi(page, 'reports');

  await expectPath(page, '/referers');
  expect(new URL(page.url()).search).toBe('?sort=count');
  await expect(page.getByRole('heading', { name: 'Referers' })).toBeVisible();
});
