import { expect, expectPath, test } from '../fixtures';
import { createStock, uniqueTicker } from './stock-helpers';

test.describe('Add New Stock (/create)', () => {
  test.beforeEach(async ({ signIn }) => {
    await signIn('admin');
  });

  test('starts with the defaults, creates the stock and finds it on the dashboard', async ({ page }) => {
    const ticker = uniqueTicker('C');
    await page.goto('/create');
    await expect(page.getByRole('heading', { name: 'Add New Stock' })).toBeVisible();
    await expect(page.getByLabel('Exchange')).toHaveValue('ASX');
    await expect(page.getByLabel('Poll start year')).toHaveValue(String(new Date().getFullYear()));
    await expect(page.getByLabel('Billing date')).not.toHaveValue('');
    await expect(page.getByRole('tab')).toHaveCount(0);

    await page.getByLabel('Ticker', { exact: true }).fill(ticker.toLowerCase());
    await expect(page.getByLabel('Ticker', { exact: true })).toHaveValue(ticker);
    await page.getByLabel('Company name').fill(`${ticker} Mining`);
    await page.getByLabel('Website').fill('www.example.com');
    await page.getByRole('button', { name: 'Save' }).click();

    await expectPath(page, `/stocks/${ticker}:ASX/config`);
    await expect(page.getByRole('heading', { name: `${ticker} ${ticker} Mining` })).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Config' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByLabel('Website')).toHaveValue('www.example.com');
    await expect(page.getByRole('link', { name: 'http://www.example.com' })).toBeVisible();

    await page.goto('/');
    await page.getByLabel('Filter').fill(ticker);
    await page.getByRole('link', { name: ticker, exact: true }).first().click();
    await expectPath(page, `/stocks/${ticker}:ASX`);
    await expect(page.getByRole('heading', { name: `${ticker} ${ticker} Mining` })).toBeVisible();
    await expect(page.getByLabel('Company name')).toHaveValue(`${ticker} Mining`);
  });

  test("refuses an invalid ticker with 'Please define a valid ticker'", async ({ page }) => {
    await page.goto('/create');
    await page.getByLabel('Ticker', { exact: true }).fill('ab');
    await page.getByRole('button', { name: 'Save' }).click();
    const dialog = page.getByRole('dialog', { name: 'Save failed' });
    await expect(dialog.getByText('Please define a valid ticker')).toBeVisible();
    await dialog.getByRole('button', { name: 'OK' }).click();
    await expect(dialog).toHaveCount(0);
    await expectPath(page, '/create');
  });

  test("shows the server's message in a modal when the ticker is taken", async ({ page }) => {
    const ticker = uniqueTicker('D');
    await page.goto('/');
    await createStock(page, ticker);
    await page.goto('/create');
    await page.getByLabel('Ticker', { exact: true }).fill(ticker);
    await page.getByRole('button', { name: 'Save' }).click();
    const dialog = page.getByRole('dialog', { name: 'Save failed' });
    await expect(dialog.getByText(`A stock with ticker ${ticker} already exists on ASX`)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Save' })).toBeVisible();
  });

  test('asks for an ISIN on LSE and FSE only', async ({ page }) => {
    await page.goto('/create');
    await expect(page.getByLabel('ISIN')).toHaveCount(0);
    await page.getByLabel('Exchange').selectOption('LSE');
    await expect(page.getByLabel('ISIN')).toBeVisible();
    await page.getByLabel('Exchange').selectOption('OTC');
    await expect(page.getByLabel('ISIN')).toHaveCount(0);
  });
});
