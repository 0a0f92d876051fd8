import path from 'node:path';
import { expect, openMenu, test } from '../fixtures';

const DIR = path.join(__dirname, '..', 'screenshots');

test('screenshot of the signed-in shell', async ({ page, signIn }, testInfo) => {
  await signIn('admin');
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Staff Dashboard' })).toBeVisible();
  await page.screenshot({ path: path.join(DIR, `shell-${testInfo.project.name}.png`) });

  if (testInfo.project.name === 'phone') {
    const drawer = await openMenu(page);
    // The drawer slides in: the picture is taken once it is wholly on the screen and its transitions ended.
    await expect(drawer).toBeInViewport({ ratio: 1 });
    await drawer.evaluate((el) =>
      Promise.all(el.getAnimations({ subtree: true }).map((animation) => animation.finished)),
    );
    await page.screenshot({ path: path.join(DIR, 'shell-phone-menu.png') });
  }
});
