import { expect, expectPath, test } from '../fixtures';

// The demo client holds roles on the demo stocks BHP (including Invoicing) and VOD:LSE
// (services/users/src/demo-users.ts); the browser suite runs on a database holding exactly the demo data.

test.describe('client dashboard', () => {
  test('the client sees their demo stocks with the spec columns', async ({ page, signIn }) => {
    await signIn('client');
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Client Dashboard' })).toBeVisible();

    const rows = page.getByTestId('client-dashboard-rows').getByRole('row');
    await expect(page.getByRole('link', { name: 'BHP', exact: true })).toHaveAttribute(
      'href',
      '/client-stocks/BHP:ASX',
    );
    // Invoicing on BHP: the Invoice column shows.
    await expect(page.getByRole('columnheader')).toHaveText([
      'Ticker',
      'Created',
      'API Key',
      'Website',
      'Email marketing',
      'Confirmation Email',
      'Invoice',
    ]);
    const bhp = rows.filter({ hasText: 'BHP' });
    await expect(bhp).toContainText('investor.relations@bhp.example.com');
    await expect(bhp.getByRole('link', { name: 'https://www.bhp.com' })).toHaveAttribute(
      'href',
      'https://www.bhp.com',
    );
    // Only the stocks the client holds roles on: its two demo stocks, never e.g. CBA.
    await expect(rows).toHaveCount(2);
    await expect(page.getByRole('link', { name: 'VOD:LSE', exact: true })).toHaveAttribute(
      'href',
      '/client-stocks/VOD:LSE',
    );
    await expect(page.getByRole('link', { name: 'CBA', exact: true })).toHaveCount(0);

    await page.getByRole('link', { name: 'BHP', exact: true }).click();
    await expectPath(page, '/client-stocks/BHP:ASX');
    await expect(page.getByTestId('route-param-combinedTicker')).toHaveText('BHP:ASX');
  });

  test('a user without stocks is told so', async ({ page, signIn }) => {
    await signIn('useradmin');
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Client Dashboard' })).toBeVisible();
    await expect(page.getByText('You have no stocks to manage yet.')).toBeVisible();
  });
});

test.describe('client dashboard on a phone', () => {
  test.use({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true });

  test('shows a row list that fits the screen', async ({ page, signIn }) => {
    await signIn('client');
    await page.goto('/');
    const list = page.getByTestId('client-dashboard-rows');
    await expect(list.getByRole('link', { name: 'BHP', exact: true })).toBeVisible();
    await expect(page.getByRole('table')).toHaveCount(0);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
});
