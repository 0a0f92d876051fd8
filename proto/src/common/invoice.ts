import { daysBetween } from './dates';

/** Spec section 4: an unpaid invoice is overdue more than 90 days after its date. */
export const OVERDUE_AFTER_DAYS = 90;

export interface InvoiceStanding {
  /** Whole days since the invoice date while unpaid; 0 once paid or without a date. */
  daysLate: number;
  overdue: boolean;
}

/** The one overdue rule: the invoicing service, the gateway and both dashboards use it. */
export function invoiceStanding(
  invoice: { unpaid: boolean; date: string | null | undefined },
  now: Date = new Date(),
): InvoiceStanding {
  const daysLate = invoice.unpaid && invoice.date ? daysBetween(invoice.date, now) : 0;
  return { daysLate, overdue: invoice.unpaid && daysLate > OVERDUE_AFTER_DAYS };
}
