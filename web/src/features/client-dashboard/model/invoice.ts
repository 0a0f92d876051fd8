import { formatInvoiceDate, invoiceStanding, StockRole, type ClientStockDto } from '@irp/proto';
import { routeHref } from '@/api/route';
import { routes } from '@/api/routes';
import { formatDollars } from '@/lib/money';

/** The client dashboard's invoice (spec section 2). */
export interface ClientInvoiceView {
  number: string;
  /** The invoice's PDF (GET /api/invoice?ticker&invoiceId), opened as a link; null without an invoice id. */
  href: string | null;
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
    href: stock.invoiceId
      ? routeHref(routes.invoicing.invoiceDownload, {
          query: { ticker: stock.combinedTicker, invoiceId: stock.invoiceId },
        })
      : null,
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
