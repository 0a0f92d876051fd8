import {
  ClientStockDto,
  completedInitialPollOf,
  LatestInitialPoll,
  ReportRunnerStock,
  Stock,
  STOCK_SUMMARY_FIELDS,
  StockRowDto,
  StockSummary,
} from '@irp/proto';
import { ComposedFields } from '../dashboard/dashboard-contributor';

/**
 * How the gateway shapes a Stock for each audience. Report-runners see only the summary (proto's
 * STOCK_SUMMARY_FIELDS); the stripping happens here, on the server, so the other fields never leave the
 * gateway for them.
 */
export function toStockSummary(stock: Stock): StockSummary {
  const out: Partial<StockSummary> = {};
  for (const k of STOCK_SUMMARY_FIELDS) (out as Record<string, unknown>)[k] = stock[k];
  return out as StockSummary;
}

/**
 * The report-runner's stock page: the summary and `completedInitialPoll`, composed from the stock's
 * `pollAsx` and the announcements service's latest initial poll.
 */
export const toReportRunnerStock = (stock: Stock, latest: LatestInitialPoll): ReportRunnerStock => ({
  ...toStockSummary(stock),
  completedInitialPoll: completedInitialPollOf(stock.pollAsx, latest),
});

/**
 * A report-runner's dashboard row when they hold InvoiceTotal: the summary plus the repeating invoice, the
 * figure the page's 'Repeating Invoice Total' sums (spec section 2), and none of the admin columns.
 */
export const toInvoiceTotalRow = (stock: Stock, composed: ComposedFields): StockRowDto => ({
  ...toStockSummary(stock),
  repeatingInvoice: composed.repeatingInvoice,
});

/** One row of the admin dashboard: the stock's own columns plus the composed ones. */
export const toAdminStockRow = (stock: Stock, composed: ComposedFields): StockRowDto => ({
  ...toStockSummary(stock),
  apiKey: stock.apiKey,
  pollAsx: stock.pollAsx,
  subscriptionExpired: stock.subscriptionExpired,
  emailMarketing: composed.emailMarketing,
  invoice: composed.invoice,
  repeatingInvoice: composed.repeatingInvoice,
});

/**
 * The client-facing form (spec section 3): client fields, the user's roles, the composed invoice and
 * `completedInitialPoll` (from the announcements service's latest initial poll).
 */
export function toClientStockDto(
  stock: Stock,
  roles: string[],
  composed: ComposedFields,
  latest: LatestInitialPoll,
): ClientStockDto {
  const invoice = composed.invoice;
  return {
    id: stock.id,
    combinedTicker: stock.combinedTicker,
    ticker: stock.ticker,
    exchange: stock.exchange,
    companyName: stock.companyName,
    created: stock.created,
    apiKey: stock.apiKey,
    websiteUrl: stock.websiteUrl,
    confirmationEmail: stock.confirmationEmail,
    contactEmail: stock.contactEmail,
    announcementNotificationEmails: stock.announcementNotificationEmails,
    sendPriceSensitiveAnnouncements: stock.sendPriceSensitiveAnnouncements,
    sendNonPriceSensitiveAnnouncements: stock.sendNonPriceSensitiveAnnouncements,
    autoSendAnnouncementEmail: stock.autoSendAnnouncementEmail,
    autoSendNonPriceSensitiveAnnouncements: stock.autoSendNonPriceSensitiveAnnouncements,
    autoSendFilter: stock.autoSendFilter,
    moderatorEmail: stock.moderatorEmail,
    companyLogoUrl: stock.companyLogoUrl,
    announcementCommentTemplate: stock.announcementCommentTemplate,
    completedInitialPoll: completedInitialPollOf(stock.pollAsx, latest),
    roles,
    emailMarketing: composed.emailMarketing,
    invoiceId: invoice?.invoiceId ?? null,
    // Money travels in integer cents; the client form shows dollars (spec: "total in dollars").
    invoiceTotal: invoice ? invoice.totalCents / 100 : null,
    invoiceStatus: invoice?.status ?? null,
    invoiceDate: invoice?.date ?? null,
    invoiceNumber: invoice?.invoiceNumber ?? null,
  };
}
