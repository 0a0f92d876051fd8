import type { BodyOf } from '@/api/route';
import type { routes } from '@/api/routes';

/** The select's values: '' is '--Assign To--' (no choice), IGNORE the ignored list, else a ticker:exchange. */
export const IGNORE = 'ignore';
export const UNSET = '';

export type AssignmentItem = BodyOf<typeof routes.invoicing.assignInvoices>['items'][number];

/** An invoice line of the page as the choice starts: its assigned stock, 'ignore' when ignored, else blank. */
export function initialChoice(invoice: { ticker: string | null }, ignored: boolean): string {
  if (ignored) return IGNORE;
  return invoice.ticker ?? UNSET;
}

/** What a choice sends (spec section 3): the ticker, ignore=true, or neither (the blank choice removes it). */
export function assignmentItem(invoiceId: string, choice: string): AssignmentItem {
  if (choice === IGNORE) return { invoiceId, ignore: true };
  if (choice === UNSET) return { invoiceId };
  return { invoiceId, ticker: choice };
}

/**
 * The items of 'Assign Invoices': every choice changed from how the invoice started, so an untouched
 * line keeps what the server holds.
 */
export function assignmentItems(
  choices: Readonly<Record<string, string>>,
  initial: Readonly<Record<string, string>>,
): AssignmentItem[] {
  return Object.entries(choices)
    .filter(([invoiceId, choice]) => (initial[invoiceId] ?? UNSET) !== choice)
    .map(([invoiceId, choice]) => assignmentItem(invoiceId, choice));
}
