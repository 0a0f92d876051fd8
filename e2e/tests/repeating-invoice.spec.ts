import { expect, test } from '../fixtures';
import { stockWithApiKey } from './stock-helpers';

// Creates a contact and a repeating invoice in the accounting stand-in for a stock of its own. A new
// repeating invoice changes the staff dashboard's Repeat column and total, which staff-dashboard.spec.ts
// compares with the API: so this file runs in the shared-state project, after the parallel ones
// (playwright.config.ts).

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
