import { expect, expectPath, openMenu, test, type DemoUser } from '../fixtures';

const ADMIN_ITEMS = ['Add New Stock', 'System Settings', 'Accounting Integration', 'Orders'];

const CASES: { user: DemoUser; dashboard: string; links: string[] }[] = [
  { user: 'admin', dashboard: 'Staff Dashboard', links: [...ADMIN_ITEMS, 'Users'] },
  { user: 'reports', dashboard: 'Staff Dashboard', links: [] },
  { user: 'useradmin', dashboard: 'Client Dashboard', links: ['Users'] },
  { user: 'client', dashboard: 'Client Dashboard', links: [] },
];

test.describe('header menu by role', () => {
  for (const { user, dashboard, links } of CASES) {
    test(`${user} sees ${links.length ? links.join(', ') + ' and ' : 'only '}Logout`, async ({
      page,
      signIn,
    }) => {
      await signIn(user);
      await page.goto('/');
      await expect(page.getByRole('heading', { name: dashboard })).toBeVisible();

      const menu = await openMenu(page);
      await expect(menu.getByText(`Logged in as ${user}`)).toBeVisible();
      for (const label of [...ADMIN_ITEMS, 'Users']) {
        const link = menu.getByRole('link', { name: label, exact: true });
        if (links.includes(label)) await expect(link).toBeVisible();
        else await expect(link).toHaveCount(0);
      }
      await expect(menu.getByRole('button', { name: 'Logout' })).toBeVisible();
    });
  }

  test('the admin links open their screens', async ({ page, signIn }) => {
    await signIn('admin');
    await page.goto('/');
    const targets = [
      ['Add New Stock', '/create', 'Add New Stock'],
      ['System Settings', '/system-settings', 'System Settings'],
      ['Accounting Integration', '/accounting-page', 'Accounting Integration'],
      ['Orders', '/orders', 'Service Orders'],
      ['Users', '/users', 'Users'],
    ] as const;
    for (const [label, path, heading] of targets) {
      const menu = await openMenu(page);
      await menu.getByRole('link', { name: label, exact: true }).click();
      await expectPath(page, path);
      await expect(page.getByRole('heading', { name: heading, exact: true })).toBeVisible();
    }
  });

  test('/users is not allowed without EditUsers', async ({ page, signIn }) => {
    await signIn('reports');
    await page.goto('/users');
    await expect(page.getByText('You are not allowed to view this page.')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Users', exact: true })).toHaveCount(0);
  });

  test('/users opens for EditUsers holders', async ({ page, signIn }) => {
    await signIn('useradmin');
    await page.goto('/users');
    await expect(page.getByRole('heading', { name: 'Users', exact: true })).toBeVisible();
  });
});
