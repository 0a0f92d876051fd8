import {
  formatDate,
  formatInvoiceDate,
  type DashboardInvoiceDto,
  type DashboardRepeatingInvoiceDto,
} from '@irp/proto';
import { invoiceStandingView, type InvoiceStandingView } from '@/lib/invoiceStanding';
import { formatCents, formatCentsPlusGst } from '@/lib/money';
import { safeHttpUrl } from '@/lib/website';

/** What the Invoice cell shows for a stock's latest invoice: the invoice and its standing. */
export interface InvoiceCellView extends InvoiceStandingView {
  number: string;
  amount: string;
  date: string;
}

export function invoiceCellView(invoice: DashboardInvoiceDto): InvoiceCellView {
  return {
    number: invoice.invoiceNumber,
    amount: formatCents(invoice.totalCents),
    date: formatInvoiceDate(invoice.date),
    // Computed by the invoicing service with proto's invoiceStanding (the one overdue rule, which the
    // client dashboard applies too), so every screen agrees on the threshold.
    ...invoiceStandingView(invoice),
  };
}

export interface RepeatCellView {
  /** The yearly amount excluding GST, as a price: '$1,800 + GST'. */
  amount: string;
  nextScheduled: string;
  url: string | null;
}

export function repeatCellView(repeating: DashboardRepeatingInvoiceDto): RepeatCellView {
  return {
    amount: formatCentsPlusGst(repeating.amountCents),
    nextScheduled: formatDate(repeating.nextScheduledDate),
    url: safeHttpUrl(repeating.url),
  };
}
