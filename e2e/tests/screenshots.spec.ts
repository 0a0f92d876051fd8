import path from 'node:path';
import { expect, openMenu, test } from '../fixtures';

const DIR = path.join(__dirname, '..', 'screenshots');

test('screenshot of the signed-in shell', async ({ page, signIn }, testInfo) => {
  await signIn('admin');
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Staff Dashboard' })).toBeVisible();
  await page.screenshot({ path: path.join(DIR, `shell-${testInfo.project.name}.png`) });

  if (testInfo.project.name === 'phone') {
    await openMenu(page);
    await page.waitForTimeout(300); // the drawer's slide-in transition
    await page.screenshot({ path: path.join(DIR, 'shell-phone-menu.png') });
  }
});
