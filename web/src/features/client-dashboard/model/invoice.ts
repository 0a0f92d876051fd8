import { formatInvoiceDate, invoiceStanding, StockRole, type ClientStockDto } from '@irp/proto';
import { routeHref } from '@/api/route';
import { routes } from '@/api/routes';
import { invoiceStandingView, type InvoiceStandingView } from '@/lib/invoiceStanding';
import { formatDollars } from '@/lib/money';

/** The client dashboard's invoice (spec section 2) and its standing. */
export interface ClientInvoiceView extends InvoiceStandingView {
  number: string;
  /** The invoice's PDF (GET /api/invoice?ticker&invoiceId), opened as a link; null without an invoice id. */
  href: string | null;
  /** Dollars, e.g. '$1,980.00'. */
  total: string;
  /** Like '05Jan24'. */
  date: string;
}

/** The client dashboard's Invoice cell (spec section 2), or null when the stock has no invoice. */
export function clientInvoiceView(stock: ClientStockDto, now: Date = new Date()): ClientInvoiceView | null {
  if (!stock.invoiceNumber && !stock.invoiceId) return null;
  const unpaid = stock.invoiceStatus !== 'PAID';
  // The client's stock carries the invoice's status and date, not the figures: proto's rule, as the service.
  const standing = invoiceStanding({ unpaid, date: stock.invoiceDate ?? null }, now);
  return {
    number: stock.invoiceNumber ?? '',
    href: stock.invoiceId
      ? routeHref(routes.invoicing.invoiceDownload, {
          query: { ticker: stock.combinedTicker, invoiceId: stock.invoiceId },
        })
      : null,
    total: formatDollars(stock.invoiceTotal),
    date: formatInvoiceDate(stock.invoiceDate),
    ...invoiceStandingView({ unpaid, ...standing }),
  };
}

/** The Invoice column shows only to users holding the Invoicing role on any of their stocks. */
export function showsInvoiceColumn(stocks: readonly ClientStockDto[]): boolean {
  return stocks.some((stock) => stock.roles.includes(StockRole.Invoicing));
}
