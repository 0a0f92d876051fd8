import type { Locator, Page } from '@playwright/test';
import { expect, expectPath, test } from '../fixtures';
import { signedInNewUser } from './user-helpers';

// The staff dashboard against the demo stocks (services/stocks/src/demo-stocks.ts): BHP, SIE:FSE, AZN:LSE,
// WES (subscription expired) and OZL (archived). Other suites add stocks to the same database (some with
// demo tickers such as VOD:LSE), so only demo stocks no other suite touches are named and totals are
// matched loosely.

const ADMIN_COLUMNS = [
  'Ticker',
  'Created',
  'API Key',
  'Poll',
  'Email marketing',
  'Invoice',
  'Repeat',
  'Expired',
  'Website',
];

// CSS locators for the rows: the suite's database may hold thousands of stocks (the dashboard benchmark's
// synthetic ones), and role queries over every row are slow.
const rows = (page: Page): Locator =>
  page.locator('[data-testid=staff-dashboard-rows] [data-testid=dashboard-row]');
const showing = (page: Page): Locator => page.getByTestId('staff-dashboard-showing');
const header = (page: Page, label: string): Locator =>
  page.locator('[role=columnheader]').filter({ hasText: new RegExp(`^${label}[▲▼]?$`) });

async function headerTexts(page: Page): Promise<string[]> {
  const texts = await page.locator('[role=columnheader]').allTextContents();
  return texts.map((t) => t.replace(/[▲▼]/g, '').trim());
}

async function firstCellTexts(page: Page): Promise<string[]> {
  return rows(page).locator('[role=cell]:first-child').allTextContents();
}

// Trace DOM snapshots of a list of thousands of rows take seconds per action; actions and screenshots
// are still traced.
test.use({ trace: { mode: 'retain-on-failure', snapshots: false } });

/** A stock's ticker link in the list. */
const tickerLink = (page: Page, ticker: string): Locator =>
  page
    .locator('[data-testid=staff-dashboard-rows] a[data-router-link]')
    .filter({ hasText: new RegExp(`^${ticker}$`) });

/** A price as the Repeat column and the total show it, '$1,800 + GST' (anywhere in the text), in dollars. */
function dollars(text: string): number {
  const match = /\$([\d,]+) \+ GST/.exec(text);
  if (!match) throw new Error(`no price in '${text}'`);
  return Number((match[1] ?? '').replace(/,/g, ''));
}

const byTicker = (a: string, b: string) => a.localeCompare(b, 'en', { numeric: true, sensitivity: 'base' });

test.describe('staff dashboard', () => {
  test('admin sees the admin columns and the demo stocks', async ({ page, signIn }) => {
    await signIn('admin');
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Staff Dashboard' })).toBeVisible();
    await expect(showing(page)).toContainText(/Showing \d+ of \d+ · All \(non-Archived\)/);
    expect(await headerTexts(page)).toEqual(ADMIN_COLUMNS);

    const bhp = tickerLink(page, 'BHP');
    await expect(bhp).toHaveAttribute('href', '/stocks/BHP:ASX');
    // Not on ASX: shown with the exchange suffix.
    await expect(tickerLink(page, 'AZN:LSE')).toHaveAttribute('href', '/stocks/AZN:LSE');
    await expect(tickerLink(page, 'SIE:FSE')).toBeVisible();
    // The archived demo stock is not in 'All (non-Archived)'.
    await expect(tickerLink(page, 'OZL')).toHaveCount(0);
    await expect(page.getByText(/Repeating Invoice Total: \$[\d,]+ \+ GST/)).toBeVisible();
    // The total is the sum of the Repeat amounts (excluding GST, shown in whole dollars plus GST) of the rows
    // shown; the rows show exactly the repeating invoices the API has for the non-archived stocks.
    const repeatColumn = ADMIN_COLUMNS.indexOf('Repeat') + 1;
    const amounts = (
      await rows(page)
        .locator(`[role=cell]:nth-child(${repeatColumn}) > div > div:first-child`)
        .allTextContents()
    ).map(dollars);
    const list = await page.request.get('/api/admin/stocks');
    expect(list.status()).toBe(200);
    // The body is the list (spec section 7); every composing service answered: the header names none.
    expect(list.headers()['x-unavailable-services']).toBe('');
    const stocks = (await list.json()) as {
      archived: boolean;
      repeatingInvoice?: { amountCents: number } | null;
    }[];
    const expectedCents = stocks.flatMap((s) =>
      !s.archived && s.repeatingInvoice ? [s.repeatingInvoice.amountCents] : [],
    );
    const ascending = (a: number, b: number) => a - b;
    expect(amounts.sort(ascending)).toEqual(expectedCents.map((c) => Math.round(c / 100)).sort(ascending));
    const total = dollars((await page.getByTestId('repeating-invoice-total').textContent()) ?? '');
    expect(total).toBe(Math.round(expectedCents.reduce((sum, c) => sum + c, 0) / 100));

    await bhp.click();
    await expectPath(page, '/stocks/BHP:ASX');
  });

  test('the text filter narrows "Showing X of Y" and survives a reload', async ({ page, signIn }) => {
    await signIn('admin');
    await page.goto('/');
    await expect(showing(page)).toContainText(/Showing \d+ of \d+/);
    const total = Number(/of (\d+)/.exec((await showing(page).textContent()) ?? '')?.[1]);
    expect(total).toBeGreaterThanOrEqual(12);

    await page.getByLabel('Filter', { exact: true }).fill('astrazeneca');
    await expect(showing(page)).toHaveText(
      `Showing 1 of ${total} · All (non-Archived) · matching "astrazeneca"`,
    );
    await expect(rows(page)).toHaveCount(1);
    await expect(rows(page).first()).toContainText('AZN:LSE');
    // The total is for the whole book only.
    await expect(page.getByText(/Repeating Invoice Total/)).toHaveCount(0);

    await page.reload();
    await expect(page.getByLabel('Filter', { exact: true })).toHaveValue('astrazeneca');
    await expect(showing(page)).toContainText('Showing 1 of');

    await page.getByLabel('Filter', { exact: true }).fill('siemens');
    // The list still shows the one astrazeneca row until the new filter applies: wait for its result.
    await expect(showing(page)).toContainText('matching "siemens"');
    await expect.poll(() => firstCellTexts(page)).toEqual(['SIE:FSE']);
  });

  test('clicking a header sorts ascending, then descending', async ({ page, signIn }) => {
    await signIn('admin');
    await page.goto('/');
    await expect(header(page, 'Created')).toHaveAttribute('aria-sort', 'descending');

    await header(page, 'Ticker').locator('button').click();
    await expect(header(page, 'Ticker')).toHaveAttribute('aria-sort', 'ascending');
    await expect(header(page, 'Ticker')).toContainText('▲');
    await expect(header(page, 'Created')).toHaveAttribute('aria-sort', 'none');
    const ascending = await firstCellTexts(page);
    expect(ascending.length).toBeGreaterThan(1);
    expect(ascending).toEqual([...ascending].sort(byTicker));

    await header(page, 'Ticker').locator('button').click();
    await expect(header(page, 'Ticker')).toHaveAttribute('aria-sort', 'descending');
    await expect(header(page, 'Ticker')).toContainText('▼');
    await expect.poll(() => firstCellTexts(page)).toEqual([...ascending].reverse());
  });

  test('Archived shows the archived demo stock', async ({ page, signIn }) => {
    await signIn('admin');
    await page.goto('/');
    await page.getByLabel('Show').selectOption({ label: 'Archived' });
    await expect(showing(page)).toContainText('· Archived');
    await expect(tickerLink(page, 'OZL')).toBeVisible();
    await expect(tickerLink(page, 'BHP')).toHaveCount(0);

    await page.getByLabel('Show').selectOption({ label: 'Non-Billable' });
    // WES's subscription expired: not billable.
    await expect(tickerLink(page, 'WES')).toBeVisible();
    await page.getByLabel('Show').selectOption({ label: 'Billable' });
    await expect(tickerLink(page, 'BHP')).toBeVisible();
    await expect(tickerLink(page, 'WES')).toHaveCount(0);
  });

  test('the select offers exactly the spec options', async ({ page, signIn }) => {
    await signIn('admin');
    await page.goto('/');
    await expect(page.getByLabel('Show').locator('option')).toHaveText([
      'All (non-Archived)',
      'Billable',
      'Billable - Unpaid',
      'Non-Billable',
      'Archived',
    ]);
  });

  test('a report-runner sees Ticker, Created and Website only', async ({ page, signIn }) => {
    await signIn('reports');
    await page.goto('/');
    await expect(tickerLink(page, 'BHP')).toBeVisible();
    expect(await headerTexts(page)).toEqual(['Ticker', 'Created', 'Website']);
    await expect(page.getByText(/Repeating Invoice Total/)).toHaveCount(0);
  });

  test('a report-runner holding InvoiceTotal sees the whole total and reaches the Invoices tab', async ({
    page,
    signIn,
    browser,
  }) => {
    await signIn('admin');
    await page.goto('/');
    const stocks = (await (await page.request.get('/api/admin/stocks')).json()) as {
      archived: boolean;
      repeatingInvoice?: { amountCents: number } | null;
    }[];
    const expectedCents = stocks.reduce(
      (sum, s) => sum + (!s.archived && s.repeatingInvoice ? s.repeatingInvoice.amountCents : 0),
      0,
    );
    expect(expectedCents).toBeGreaterThan(0);

    // Exactly RunReports + InvoiceTotal, no Admin.
    const user = await signedInNewUser(page, browser, 'invoicetotal', {
      roles: ['RunReports', 'InvoiceTotal'],
      permissions: [],
    });
    await expect(tickerLink(user, 'BHP')).toBeVisible();
    expect(await headerTexts(user)).toEqual(['Ticker', 'Created', 'Website']);
    // The sum of the repeating invoices the admin's rows carry, not $0.
    const total = dollars((await user.getByTestId('repeating-invoice-total').textContent()) ?? '');
    expect(total).toBe(Math.round(expectedCents / 100));

    await user.goto('/stocks/BHP:ASX/invoices');
    await expect(user.getByRole('tab')).toHaveText(['Invoices', 'Reports']);
    await expect(user.getByRole('tab', { name: 'Invoices' })).toHaveAttribute('aria-selected', 'true');
    await expect(user.getByLabel('Repeating invoice', { exact: true })).toBeVisible();
    await user.context().close();
  });
});

test.describe('staff dashboard on a phone', () => {
  test.use({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true });

  test('shows a row list instead of the table and fits the screen', async ({ page, signIn }) => {
    await signIn('admin');
    await page.goto('/');
    const list = page.getByTestId('staff-dashboard-rows');
    await expect(list.locator('a[data-router-link]').filter({ hasText: /^BHP$/ })).toBeVisible();
    await expect(page.locator('[role=table]')).toHaveCount(0);

    await page.getByLabel('Sort by').selectOption({ label: 'Ticker' });
    await page.getByLabel('Order').selectOption({ label: 'Descending' });
    await page.getByLabel('Filter', { exact: true }).fill('FSE');
    const fse = list.locator('a[data-router-link]').filter({ hasText: /:FSE$/ });
    await expect(fse.filter({ hasText: /^SIE:FSE$/ })).toHaveCount(1);
    const tickers = await fse.allTextContents();
    expect(tickers).toEqual([...tickers].sort(byTicker).reverse());

    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
});
