import { formatDate, formatInvoiceDate } from '@irp/proto';
import { routeHref } from '@/api/route';
import { routes } from '@/api/routes';
import { invoiceStandingView, type InvoiceStandingView } from '@/lib/invoiceStanding';
import { formatCents } from '@/lib/money';
import type { StockInvoiceData } from '../api/invoicesApi';

type Invoice = StockInvoiceData['invoices'][number];
type RepeatingInvoice = StockInvoiceData['repeatingInvoices'][number];

/** Spec section 8. */
export const REPEATING_INVOICE_FAILURE = 'Unable to create repeating invoice';
export const repeatingInvoiceFailure = (message: string): string =>
  `${REPEATING_INVOICE_FAILURE}: ${message}`;

/** One line of the invoice list: the invoice and its standing. */
export interface InvoiceRowView extends InvoiceStandingView {
  id: string;
  number: string;
  /** The PDF from the accounting system (GET /api/invoice?ticker&invoiceId), opened as a link. */
  href: string;
  /** Like '05Jan24'. */
  date: string;
  /** AUD, GST included (the invoice's total). */
  total: string;
}

export function invoiceRowView(combinedTicker: string, invoice: Invoice): InvoiceRowView {
  return {
    id: invoice.invoiceID,
    number: invoice.invoiceNumber,
    href: routeHref(routes.invoicing.invoiceDownload, {
      query: { ticker: combinedTicker, invoiceId: invoice.invoiceID },
    }),
    date: formatInvoiceDate(invoice.date),
    total: formatCents(invoice.totalCents),
    // The service computed the figures with proto's invoiceStanding.
    ...invoiceStandingView(invoice),
  };
}

/**
 * The invoices given to the stock by hand (the ones Unassign can take back), which saveInvoiceData's
 * `invoices` replaces; those its reference matches are not among them.
 */
export const assignedInvoiceIds = (data: Pick<StockInvoiceData, 'invoices'>): string[] =>
  data.invoices.filter((i) => i.assigned).map((i) => i.invoiceID);

/** The chosen repeating invoice's next date ('Next 1 Jul 2026'), or that its schedule has ended. */
export function nextScheduledText(repeating: RepeatingInvoice): string {
  const next = repeating.schedule.nextScheduledDate;
  return next ? `Next ${formatDate(next)}` : 'Schedule ended';
}

/**
 * The amount typed for a new repeating invoice: dollars excluding GST, more than 0 (a '$' and thousands
 * separators are allowed); null when it is not such a number, so nothing is sent.
 */
export function parseAmount(text: string): number | null {
  const cleaned = text.trim().replace(/^\$/, '').replace(/,/g, '');
  if (!/^\d+(\.\d{1,2})?$/.test(cleaned)) return null;
  const amount = Number(cleaned);
  return amount > 0 && amount <= 1_000_000 ? amount : null;
}
