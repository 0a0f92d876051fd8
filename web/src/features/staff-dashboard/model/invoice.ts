import {
  formatDate,
  formatInvoiceDate,
  type DashboardInvoiceDto,
  type DashboardRepeatingInvoiceDto,
} from '@irp/proto';
import { formatCents, formatCentsPlusGst } from '@/lib/money';
import { safeHttpUrl } from '@/lib/website';

/** What the Invoice cell shows for a stock's latest invoice. */
export interface InvoiceCellView {
  number: string;
  amount: string;
  date: string;
  status: 'Paid' | 'Unpaid';
  /** '{n} days overdue' while unpaid (null when paid or not yet late). */
  overdueText: string | null;
  /** Unpaid for more than 90 days: the days show in red. */
  overdue: boolean;
}

export function invoiceCellView(invoice: DashboardInvoiceDto): InvoiceCellView {
  return {
    number: invoice.invoiceNumber,
    amount: formatCents(invoice.totalCents),
    date: formatInvoiceDate(invoice.date),
    status: invoice.unpaid ? 'Unpaid' : 'Paid',
    overdueText: invoice.unpaid && invoice.daysLate > 0 ? `${invoice.daysLate} days overdue` : null,
    // Computed by the invoicing service with proto's invoiceStanding (the one overdue rule, which the
    // client dashboard applies too), so every screen agrees on the threshold.
    overdue: invoice.unpaid && invoice.overdue,
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
