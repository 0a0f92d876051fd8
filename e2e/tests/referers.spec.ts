import { expect, test } from '../fixtures';

// Demo referers (services/stocks/src/demo-stocks.ts): BHP's investor and media pages.

test.describe('referers page', () => {
  test('lists each stock with the pages that use its widget', async ({ page, signIn }) => {
    await signIn('admin');
    await page.goto('/referers');
    await expect(page.getByRole('heading', { name: 'Referers' })).toBeVisible();
    await expect(page.getByRole('columnheader')).toHaveText(['Ticker', 'Referers']);

    const bhp = page
      .getByTestId('referers-rows')
      .getByRole('row')
      .filter({ hasText: 'https://www.bhp.com/investors' })
      .first();
    await expect(
      bhp.getByRole('link', { name: 'https://www.bhp.com/investors', exact: true }),
    ).toHaveAttribute('href', 'https://www.bhp.com/investors');
    // Count, first and last in Sydney time like '22 Mar 2025 8:50 AM'.
    await expect(bhp).toContainText(
      /\d+ hits · first \d{1,2} [A-Z][a-z]{2} \d{4} \d{1,2}:\d{2} [AP]M · last /,
    );

    await page.getByLabel('Filter', { exact: true }).fill('media-and-insights');
    await expect(page.getByTestId('referers-showing')).toContainText(/Showing 1 of \d+/);
    await expect(page.getByTestId('referers-rows').getByRole('row')).toHaveCount(1);
    await expect(page.getByTestId('referers-rows')).toContainText('BHP');
  });

  test('is refused to a client', async ({ page, signIn }) => {
    await signIn('client');
    const answered = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/admin/referers');
    await page.goto('/referers');
    const response = await answered;
    expect(response.status()).toBe(403);
    const { errorMessage } = (await response.json()) as { errorMessage?: string };
    expect(errorMessage).toBeTruthy();

    await expect(page.getByRole('heading', { name: 'Referers' })).toBeVisible();
    const alert = page.getByRole('alert');
    await expect(alert).toContainText('Unable to load the referers');
    await expect(alert).toContainText(errorMessage ?? '');
    // No referer data: neither the count nor a row, and none of the demo referers' pages.
    await expect(page.getByTestId('referers-showing')).toHaveCount(0);
    await expect(page.getByTestId('referers-rows')).toHaveCount(0);
    await expect(page.getByText('https://www.bhp.com/investors')).toHaveCount(0);
  });
});

test.describe('referers page on a phone', () => {
  test.use({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true });

  test('shows a row list that fits the screen', async ({ page, signIn }) => {
    await signIn('admin');
    await page.goto('/referers');
    await expect(
      page.getByTestId('referers-rows').getByText('https://www.bhp.com/investors', { exact: true }),
    ).toBeVisible();
    await expect(page.getByRole('table')).toHaveCount(0);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
});
