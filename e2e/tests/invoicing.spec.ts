import type { Locator, Page } from '@playwright/test';
import { expect, openMenu, test } from '../fixtures';
import { csrfHeader, stockWithApiKey } from './stock-helpers';

// Invoicing against the accounting stand-in's demo organisation (standins/src/accounting/demo-accounting.ts),
// which the stack starts from services/manifest.json: BHP's and VOD's invoices under the references the
// stocks seed gives them (BHP-2023-001, VOD-UK-17; VOD's newest is unpaid and 91 days old: overdue), and
// unassigned ones of Wesfarmers, Woolworths and Pilbara. A test that changes an assignment or creates
// something in the accounting system does it on a stock of its own, and puts a demo invoice's choice back.

/** An invoice date as spec section 9 writes it: 05Jan24. */
const INVOICE_DATE = /\d{2}[A-Z][a-z]{2}\d{2}/;

/**
 * "{n} days overdue" of VOD's overdue invoice as the server counts it now: 91 days on the day the
 * stand-in's demo organisation was dated (its start), 92 when the run has since crossed midnight UTC.
 */
async function vodOverdueText(page: Page): Promise<string> {
  const res = await page.request.get('/api/admin/invoices?ticker=VOD:LSE');
  expect(res.status()).toBe(200);
  const { invoices } = (await res.json()) as { invoices: Array<{ overdue: boolean; daysLate: number }> };
  const overdue = invoices.filter((i) => i.overdue);
  expect(overdue).toHaveLength(1);
  expect([91, 92]).toContain(overdue[0]!.daysLate);
  return `${overdue[0]!.daysLate} days overdue`;
}

const dashboardRow = (page: Page, combinedTicker: string): Locator =>
  page
    .locator('[data-testid=staff-dashboard-rows] [data-testid=dashboard-row]')
    .filter({ has: page.locator(`a[href="/stocks/${combinedTicker}"]`) });

test.describe('accounting page', () => {
  // One flow over the demo's unassigned invoices, in order.
  test.describe.configure({ mode: 'default' });

  test('refresh, assign an invoice to a stock, ignore one, and see the lists change', async ({
    page,
    signIn,
  }) => {
    await signIn('admin');
    const stock = await stockWithApiKey(page.request, 'ACC');
    await page.goto('/');
    await (await openMenu(page)).getByRole('link', { name: 'Accounting Integration' }).click();
    await expect(page.getByRole('heading', { name: 'Accounting Integration' })).toBeVisible();

    const refresh = page.getByRole('button', { name: /^(Refresh Accounting|Refreshing\.\.\.|Refreshed!)$/ });
    await refresh.click();
    await expect(refresh).toHaveText('Refreshed!');
    await expect(refresh).toHaveText('Refresh Accounting');

    const unassigned = page.getByRole('region', { name: 'Unassigned Invoices' });
    const ignored = page.getByRole('region', { name: 'Ignored Invoices' });
    await expect(page.getByRole('region', { name: 'Unassigned Repeating Invoices' })).toContainText(
      'WOW-2024-003',
    );
    const wesfarmers = unassigned.getByTestId('unassigned-invoice').filter({ hasText: 'Wesfarmers' }).first();
    const pilbara = unassigned.getByTestId('unassigned-invoice').filter({ hasText: 'Pilbara' }).first();
    await expect(wesfarmers).toBeVisible();
    await expect(pilbara).toBeVisible();
    const wesId = (await wesfarmers.getAttribute('data-invoice-id')) ?? '';
    const plsId = (await pilbara.getAttribute('data-invoice-id')) ?? '';
    const wesNumber = /INV-\d{4}/.exec((await wesfarmers.textContent()) ?? '')?.[0] ?? '';
    expect(wesNumber).not.toBe('');
    // Each line links to the invoice in the accounting system.
    await expect(wesfarmers.getByRole('link')).toHaveAttribute('href', /^https?:\/\//);

    const wesSelect = wesfarmers.getByRole('combobox');
    await expect(wesSelect.locator('option').nth(0)).toHaveText('--Assign To--');
    await expect(wesSelect.locator('option').nth(1)).toHaveText('Ignore');
    // The stock made above reaches the invoicing service by its events: reload until the select offers it
    // (a select puts the stocks in once it is used: focused here, as a click or a key does).
    await expect(async () => {
      await page.reload();
      await unassigned.locator(`[data-invoice-id="${wesId}"] select`).focus();
      await expect(
        unassigned
          .locator(`[data-invoice-id="${wesId}"] option`)
          .filter({ hasText: `${stock.combinedTicker} ` }),
        // One try of the block: toPass tries it again (its own wait is the test's).
      ).toHaveCount(1, { timeout: 2_000 });
    }).toPass();

    try {
      await unassigned.locator(`[data-invoice-id="${wesId}"] select`).selectOption(stock.combinedTicker);
      await unassigned.locator(`[data-invoice-id="${plsId}"] select`).selectOption('ignore');
      const assign = page.getByRole('button', { name: /^(Assign Invoices|Wait\.\.\.|Assigned!)$/ });
      await assign.click();
      await expect(assign).toHaveText('Assigned!');

      // The answered page: the Wesfarmers invoice is the stock's now, the Pilbara one ignored.
      await expect(unassigned.locator(`[data-invoice-id="${wesId}"]`)).toHaveCount(0);
      await expect(unassigned.locator(`[data-invoice-id="${plsId}"]`)).toHaveCount(0);
      await expect(ignored.locator(`[data-invoice-id="${plsId}"] select`)).toHaveValue('ignore');

      // The assigned invoice is on the stock's Invoices tab.
      await page.goto(`/stocks/${stock.combinedTicker}/invoices`);
      await expect(page.getByTestId('invoice-row').filter({ hasText: wesNumber })).toBeVisible();

      // A blank choice removes the ignore.
      await page.goto('/accounting-page');
      await ignored.locator(`[data-invoice-id="${plsId}"] select`).selectOption('');
      await page.getByRole('button', { name: 'Assign Invoices' }).click();
      await expect(page.getByRole('button', { name: 'Assigned!' })).toBeVisible();
      await expect(unassigned.locator(`[data-invoice-id="${plsId}"] select`)).toHaveValue('');
      await expect(ignored.getByText('None', { exact: true })).toBeVisible();
    } finally {
      // The demo's invoices back to unassigned (a blank choice each), for the next run on this database.
      const back = await page.request.post('/api/admin/assignAccountingInvoices', {
        headers: await csrfHeader(page),
        data: { items: [{ invoiceId: wesId }, { invoiceId: plsId }] },
      });
      expect(back.status()).toBe(200);
    }
  });
});

test.describe('Invoices tab', () => {
  test("lists BHP's invoices with their PDF links, dates, totals and standing", async ({ page, signIn }) => {
    await signIn('admin');
    await page.goto('/stocks/BHP:ASX/invoices');
    const rows = page.getByTestId('invoice-row');
    await expect(rows.first()).toBeVisible();
    expect(await rows.count()).toBeGreaterThan(5);
    const first = rows.first();
    await expect(first).toContainText(INVOICE_DATE);
    await expect(first).toContainText(/\$[\d,]+\.\d{2}/);
    await expect(first).toContainText(/Paid|Unpaid/);
    // A paid one: 'Paid' right after its total (then 'By reference' or 'Unassign').
    await expect(rows.filter({ hasText: /\.\d{2}Paid/ }).first()).toBeVisible();

    const link = first.getByRole('link');
    const href = (await link.getAttribute('href')) ?? '';
    expect(href).toMatch(/^\/api\/invoice\?ticker=BHP%3AASX&invoiceId=/);
    const pdf = await page.request.get(href);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()['content-type']).toContain('application/pdf');
    expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');

    // BHP's repeating invoice is chosen in the selector, with its next date.
    await expect(page.getByLabel('Repeating invoice', { exact: true })).toHaveValue(/.+/);
    await expect(page.getByTestId('repeating-invoice-next')).toContainText(/Next \d+ \w{3} \d{4}/);
    // Nothing changed: the page's Save has nothing to save.
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByText('Nothing to Save', { exact: true })).toBeVisible();
  });

  test("shows VOD's unpaid invoice of 91 days ago as overdue, in red", async ({ page, signIn }) => {
    await signIn('admin');
    await page.goto('/stocks/VOD:LSE/invoices');
    const daysOverdue = await vodOverdueText(page);
    const overdue = page.getByTestId('invoice-row').filter({ hasText: daysOverdue });
    await expect(overdue).toHaveCount(1);
    await expect(overdue).toContainText('Unpaid');
    const days = overdue.getByText(daysOverdue);
    await expect(days).toHaveClass(/overdue/);
    await expect(days).toHaveCSS('color', /rgb\((2[0-5]\d|1\d\d), \d{1,2}, \d{1,2}\)/);
  });
});

test.describe('staff dashboard invoice figures', () => {
  test('Invoice and Repeat cells, the reminder copied to the clipboard', async ({
    page,
    context,
    signIn,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await signIn('admin');
    await page.goto('/');
    const vod = dashboardRow(page, 'VOD:LSE');
    const invoice = vod.getByTestId('invoice-cell');
    await expect(invoice).toContainText(/INV-\d{4} · \$[\d,]+\.\d{2} · \d{2}[A-Z][a-z]{2}\d{2}/);
    const daysOverdue = await vodOverdueText(page);
    await expect(invoice).toContainText(`Unpaid ${daysOverdue}`);
    await expect(invoice.getByText(daysOverdue)).toHaveClass(/overdue/);
    const number = /INV-\d{4}/.exec((await invoice.textContent()) ?? '')?.[0] ?? '';

    // Repeat: the yearly amount excluding GST, as a price, and the next date linking to the accounting system.
    const repeatColumn = 7;
    const repeat = vod.locator(`[role=cell]:nth-child(${repeatColumn})`);
    await expect(repeat).toContainText(/^\$[\d,]+ \+ GST/);
    await expect(repeat.getByRole('link', { name: /^Next \d+ \w{3} \d{4}$/ })).toHaveAttribute(
      'href',
      /^https?:\/\//,
    );

    await invoice.getByRole('button', { name: 'Copy reminder email' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: 'Email reminder copied to clipboard' }),
    ).toBeVisible();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toContain(number);
  });

  test('Billable, Billable - Unpaid and Non-Billable, with the repeating total in AUD plus GST', async ({
    page,
    signIn,
  }) => {
    await signIn('admin');
    await page.goto('/');
    const total = page.getByTestId('repeating-invoice-total');
    await expect(total).toHaveText(/^Repeating Invoice Total: \$[\d,]+ \+ GST$/);

    await page.getByLabel('Show').selectOption({ label: 'Billable' });
    await expect(page.getByTestId('staff-dashboard-showing')).toContainText('· Billable');
    await expect(total).toHaveText(/^Repeating Invoice Total: \$[\d,]+ \+ GST$/);
    await expect(dashboardRow(page, 'VOD:LSE')).toHaveCount(1);

    await page.getByLabel('Show').selectOption({ label: 'Billable - Unpaid' });
    await expect(page.getByTestId('staff-dashboard-showing')).toContainText('· Billable - Unpaid');
    // VOD's newest invoice is unpaid; the total is for the whole book only.
    await expect(dashboardRow(page, 'VOD:LSE')).toHaveCount(1);
    await expect(total).toHaveCount(0);
    const invoices = page.locator('[data-testid=staff-dashboard-rows] [data-testid=invoice-cell]');
    for (const text of await invoices.allTextContents()) expect(text).toContain('Unpaid');

    await page.getByLabel('Show').selectOption({ label: 'Non-Billable' });
    await expect(page.getByTestId('staff-dashboard-showing')).toContainText('· Non-Billable');
    await expect(dashboardRow(page, 'VOD:LSE')).toHaveCount(0);
  });
});

test.describe('client dashboard invoice column', () => {
  test('the invoice number links to its PDF; total, date and standing show', async ({ page, signIn }) => {
    await signIn('client');
    await page.goto('/');
    const bhp = page.getByTestId('client-dashboard-rows').getByRole('row').filter({ hasText: 'BHP' });
    const cell = bhp.getByTestId('client-invoice-cell');
    await expect(cell).toContainText(/INV-\d{4} \$[\d,]+\.\d{2} \d{2}[A-Z][a-z]{2}\d{2}/);
    await expect(cell).toContainText(/Paid|Unpaid - \d+ days overdue/);
    const link = cell.getByRole('link', { name: /^INV-\d{4}$/ });
    const href = (await link.getAttribute('href')) ?? '';
    expect(href).toMatch(/^\/api\/invoice\?ticker=BHP%3AASX&invoiceId=/);
    const pdf = await page.request.get(href);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()['content-type']).toContain('application/pdf');
  });
});

test.describe('invoicing on a phone', () => {
  test.use({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true });

  const fits = async (page: Page) =>
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    ).toBeLessThanOrEqual(0);

  test('the row list shows the invoice figures and the reminder button', async ({ page, signIn }) => {
    await signIn('admin');
    await page.goto('/');
    await page.getByLabel('Filter', { exact: true }).fill('vodafone');
    const card = page.locator('[data-testid=staff-dashboard-rows] [data-testid=dashboard-row]').first();
    await expect(card.getByTestId('invoice-cell')).toContainText(await vodOverdueText(page));
    await expect(card.getByRole('button', { name: 'Copy reminder email' })).toBeVisible();
    await expect(card).toContainText(/\$[\d,]+ \+ GST/);
    await fits(page);
  });

  test('the accounting page and the Invoices tab fit the screen', async ({ page, signIn }) => {
    await signIn('admin');
    await page.goto('/accounting-page');
    await expect(page.getByTestId('unassigned-invoice').first()).toBeVisible();
    await fits(page);
    await page.goto('/stocks/VOD:LSE/invoices');
    await expect(page.getByTestId('invoice-row').first()).toBeVisible();
    await expect(page.getByLabel('Assign an unassigned invoice')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Assign', exact: true })).toBeVisible();
    await fits(page);
  });
});
