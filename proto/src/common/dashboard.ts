import { z } from 'zod';

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
