import { formatInvoiceDate, invoiceStanding, StockRole, type ClientStockDto } from '@irp/proto';
import { formatDollars } from '@/lib/money';

/**
 * The client dashboard's invoice. The spec links the number to the invoice download (spec section 2); the
 * route table has no invoice route yet, so the number is plain text: the invoicing issue adds the route and
 * the link.
 */
export interface ClientInvoiceView {
  number: string;
  /** Dollars, e.g. '$1,980.00'. */
  total: string;
  /** Like '05Jan24'. */
  date: string;
  status: 'Paid' | 'Unpaid - ';
  /** '{n} days overdue' for an unpaid invoice; null when paid. */
  daysText: string | null;
  /** proto's invoiceStanding: unpaid and older than 90 days. */
  overdue: boolean;
}

/** The client dashboard's Invoice cell (spec section 2), or null when the stock has no invoice. */
export function clientInvoiceView(stock: ClientStockDto, now: Date = new Date()): ClientInvoiceView | null {
  if (!stock.invoiceNumber && !stock.invoiceId) return null;
  const paid = stock.invoiceStatus === 'PAID';
  const { daysLate, overdue } = invoiceStanding({ unpaid: !paid, date: stock.invoiceDate ?? null }, now);
  return {
    number: stock.invoiceNumber ?? '',
    total: formatDollars(stock.invoiceTotal),
    date: formatInvoiceDate(stock.invoiceDate),
    status: paid ? 'Paid' : 'Unpaid - ',
    daysText: paid ? null : `${daysLate} days overdue`,
    overdue,
  };
}

/** The Invoice column shows only to users holding the Invoicing role on any of their stocks. */
export function showsInvoiceColumn(stocks: readonly ClientStockDto[]): boolean {
  return stocks.some((stock) => stock.roles.includes(StockRole.Invoicing));
}
