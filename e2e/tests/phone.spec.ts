import { appHeader, expect, expectPath, test } from '../fixtures';

// Runs in the phone project only (playwright.config.ts).
test('at phone width the menu is reachable via the burger', async ({ page, signIn }) => {
  await signIn('admin');
  await page.goto('/');
  const banner = appHeader(page);
  await expect(banner).toBeVisible();
  await expect(banner.getByRole('link', { name: 'System Settings' })).toHaveCount(0);
  await expect(banner.getByText('Logged in as admin')).toHaveCount(0);

  await banner.getByRole('button', { name: 'Open menu' }).click();
  const drawer = page.getByRole('dialog', { name: 'Menu' });
  await expect(drawer.getByText('Logged in as admin')).toBeVisible();
  await expect(drawer.getByRole('button', { name: 'Logout' })).toBeVisible();
  await drawer.getByRole('link', { name: 'System Settings' }).click();

  await expectPath(page, '/system-settings');
  await expect(page.getByRole('heading', { name: 'System Settings' })).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Menu' })).toHaveCount(0);

  // Nothing overflows the narrow screen.
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});

test('at phone width the order form fits and lists its Required messages', async ({ page }) => {
  await page.goto('/new-order');
  await expect(page.getByRole('checkbox', { name: /^OPTION 1 - / })).toBeChecked();
  await page.getByRole('button', { name: 'Submit Order Form' }).click();
  await expect(page.getByText('Authorised By Required', { exact: true })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});

test('at phone width the option group editor on Orders fits', async ({ page, signIn }) => {
  await signIn('admin');
  await page.goto('/orders');
  await page.getByRole('button', { name: 'New option group' }).click();
  await page.getByTestId('option-group-editor').getByRole('button', { name: 'Add option' }).click();
  await expect(page.getByTestId('option-editor')).toHaveCount(2);
  await expect(page.getByTestId('option-group').first()).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});
