import { z } from 'zod';
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

/** The latest invoice of a stock as the dashboards show it. Money in integer cents. */
export const DashboardInvoiceSchema = z.object({
  invoiceId: z.string(),
  invoiceNumber: z.string(),
  totalCents: z.number().int(),
  /** ISO date of the invoice. */
  date: z.string(),
  /** The accounting system's status, e.g. PAID or AUTHORISED. */
  status: z.string(),
  unpaid: z.boolean(),
  /** invoiceStanding(): unpaid and more than OVERDUE_AFTER_DAYS since the invoice date. */
  overdue: z.boolean(),
  daysLate: z.number().int(),
});
export type DashboardInvoiceDto = z.infer<typeof DashboardInvoiceSchema>;

export const DashboardRepeatingInvoiceSchema = z.object({
  repeatingInvoiceId: z.string(),
  amountCents: z.number().int(),
  nextScheduledDate: z.string().nullable(),
  /** Link to the repeating invoice in the accounting system. */
  url: z.string().nullable(),
});
export type DashboardRepeatingInvoiceDto = z.infer<typeof DashboardRepeatingInvoiceSchema>;
