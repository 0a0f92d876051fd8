import { expect, test } from '../fixtures';
import { csrfHeader, stockWithApiKey } from './stock-helpers';
import { signedInNewUser } from './user-helpers';

// Creates a contact and a repeating invoice in the accounting stand-in for a stock of its own. A new
// repeating invoice changes the staff dashboard's Repeat column and total, which staff-dashboard.spec.ts
// compares with the API; an invoice assigned on the Invoices tab leaves the demo's unassigned list, which
// invoicing.spec.ts's accounting page reads: so this file runs in the shared-state project, after the
// parallel ones (playwright.config.ts).

test.describe('Invoices tab: creating in the accounting system', () => {
  test('creates the contact, refuses a non-numeric amount and creates a repeating invoice', async ({
    page,
    signIn,
  }) => {
    await signIn('admin');
    const stock = await stockWithApiKey(page.request, 'INV');
    await page.goto(`/stocks/${stock.combinedTicker}/invoices`);
    await expect(page.getByText('No invoices')).toBeVisible();

    // No contact yet: the service's refusal, in spec section 8's words. (The new stock reaches the invoicing
    // service by its events: try until it knows the stock.)
    const repeatingResult = page.getByTestId('create-repeating-result');
    await expect(async () => {
      await page.getByRole('button', { name: 'Create Repeating Invoice' }).click();
      await expect(repeatingResult).toContainText(
        `Unable to create repeating invoice: ${stock.combinedTicker} has no contact in the accounting system yet`,
        { timeout: 3_000 },
      );
    }).toPass();

    const contactResult = page.getByTestId('create-contact-result');
    await page.getByRole('button', { name: 'Create Contact' }).click();
    await expect(contactResult).toContainText(/^Contact created: [\w-]+$/);
    await expect(page.getByTestId('contact-id')).toContainText(/Contact: [\w-]+/);

    // A second contact of the same name: the accounting system's refusal, shown with its message.
    await page.getByRole('button', { name: 'Create Contact' }).click();
    await expect(contactResult).toHaveAttribute('role', 'alert');
    await expect(contactResult).not.toContainText('Contact created');

    const amount = page.getByLabel('Amount (AUD, excluding GST)');
    await expect(amount).toHaveValue('1800');
    await amount.fill('eighteen hundred');
    await page.getByRole('button', { name: 'Create Repeating Invoice' }).click();
    await expect(repeatingResult).toHaveText(
      'Unable to create repeating invoice: amount must be a number more than 0',
    );

    await amount.fill('2400');
    await expect(page.getByText('$2,400 + GST')).toBeVisible();
    await page.getByRole('button', { name: 'Create Repeating Invoice' }).click();
    await expect(repeatingResult).toContainText('Repeating invoice created: ');
    await expect(repeatingResult).toContainText('$2,400');
    // The selector offers the new repeating invoice.
    await expect(
      page.getByLabel('Repeating invoice', { exact: true }).locator('option').filter({ hasText: '$2,400' }),
    ).toHaveCount(1);
  });
});

test.describe('Invoices tab: assigning invoices', () => {
  test('an InvoiceTotal user without Admin assigns an unassigned invoice and unassigns it; the client holding Invoicing sees it, then not', async ({
    page,
    signIn,
    browser,
  }) => {
    await signIn('admin');
    const stock = await stockWithApiKey(page.request, 'ASG');
    // Exactly RunReports + InvoiceTotal (the stock page is staff's), and a client with Invoicing on the stock.
    const staff = await signedInNewUser(page, browser, 'assigner', {
      roles: ['RunReports', 'InvoiceTotal'],
      permissions: [],
    });
    const client = await signedInNewUser(page, browser, 'invoiced', {
      permissions: [{ combinedTicker: stock.combinedTicker, roles: ['Invoicing'] }],
    });
    let invoiceId = '';
    try {
      // The new stock reaches the invoicing service by its events: reload until the tab has its data.
      await expect(async () => {
        await staff.goto(`/stocks/${stock.combinedTicker}/invoices`);
        await expect(staff.getByText('No invoices')).toBeVisible({ timeout: 3_000 });
      }).toPass();
      await expect(staff.getByRole('tab')).toHaveText(['Invoices', 'Reports']);

      const select = staff.getByLabel('Assign an unassigned invoice');
      const option = select.locator('option').filter({ hasText: 'Woolworths' }).first();
      invoiceId = (await option.getAttribute('value')) ?? '';
      const number = /INV-\d{4}/.exec((await option.textContent()) ?? '')?.[0] ?? '';
      expect(invoiceId).not.toBe('');
      expect(number).not.toBe('');
      await select.selectOption(invoiceId);
      await staff.getByRole('button', { name: 'Assign', exact: true }).click();
      const result = staff.getByTestId('invoice-assignment-result');
      await expect(result).toContainText(`Assigned ${number}`);
      await expect(result).toContainText(`to ${stock.combinedTicker}`);
      const row = staff.getByTestId('invoice-row').filter({ hasText: number });
      await expect(row).toBeVisible();
      // No longer offered: it is the stock's now.
      await expect(select.locator(`option[value="${invoiceId}"]`)).toHaveCount(0);

      // The client holding Invoicing on the stock sees its latest invoice: the Invoice column and the form.
      await client.goto('/');
      const clientRow = client
        .getByTestId('client-dashboard-rows')
        .getByRole('row')
        .filter({ hasText: stock.ticker });
      const cell = clientRow.getByTestId('client-invoice-cell');
      await expect(cell).toContainText(number);
      await expect(cell).toContainText(/\$[\d,]+\.\d{2} \d{2}[A-Z][a-z]{2}\d{2}/);
      const form = await client.request.get(`/api/ClientStock/?combinedTicker=${stock.combinedTicker}`);
      expect(form.status()).toBe(200);
      expect(await form.json()).toMatchObject({ invoiceId, invoiceNumber: number });

      await row.getByRole('button', { name: `Unassign ${number}` }).click();
      await expect(result).toHaveText(`Unassigned ${number}`);
      await expect(staff.getByText('No invoices')).toBeVisible();
      await expect(select.locator(`option[value="${invoiceId}"]`)).toHaveCount(1);

      await client.reload();
      await expect(clientRow).toBeVisible();
      await expect(cell).toHaveCount(0);
    } finally {
      await staff.context().close();
      await client.context().close();
      // The demo's invoice back to unassigned (a blank choice), for the next run on this database.
      if (invoiceId) {
        const back = await page.request.post('/api/admin/assignAccountingInvoices', {
          headers: await csrfHeader(page),
          data: { items: [{ invoiceId }] },
        });
        expect(back.status()).toBe(200);
      }
    }
  });
});
