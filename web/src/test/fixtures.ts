import type { ClientStockDto, Stock, StockRowDto } from '@irp/proto';
import { stockFixture } from '@irp/proto/testing';

/** The stock id of `bhpStock()`. */
export const BHP_STOCK_ID = '6f1c2d3e-4b5a-4c6d-8e7f-901234567890';

/** A stock as the staff page gets it: its own fields and the gateway's composed completedInitialPoll. */
export type PageStock = Stock & { completedInitialPoll: boolean };

/**
 * BHP as GET /api/stock/{combinedTicker} answers an admin (the stock's own fields and completedInitialPoll,
 * its initial poll done; a feature adds the staff page's announcements, initial poll and unavailable
 * parts): proto's `stockFixture` with BHP's values.
 */
export function bhpStock(overrides: Partial<PageStock> = {}): PageStock {
  const { completedInitialPoll = true, ...fields } = overrides;
  return {
    ...stockFixture({
      id: BHP_STOCK_ID,
      ticker: 'BHP',
      companyName: 'BHP Group',
      created: '2025-03-21T21:50:00.000Z',
      sendPriceSensitiveAnnouncements: true,
      announcementStartYear: 2019,
      confirmationEmail: 'ir@bhp.example',
      billingDate: '2025-06-30T14:00:00.000Z',
      websiteUrl: 'www.bhp.example',
      accountingReference: 'BHP-1',
      version: 3,
      updatedAt: '2025-07-01T00:00:00.000Z',
      ...fields,
    }),
    completedInitialPoll,
  };
}

/** A staff dashboard row of `ticker` (ASX unless `overrides.exchange` says otherwise) for tests. */
export function stockRowDto(ticker: string, overrides: Partial<StockRowDto> = {}): StockRowDto {
  const exchange = overrides.exchange ?? 'ASX';
  return {
    id: `id-${ticker}`,
    ticker,
    exchange,
    combinedTicker: `${ticker}:${exchange}`,
    companyName: `${ticker} Ltd`,
    created: '2025-01-01T00:00:00.000Z',
    websiteUrl: `${ticker.toLowerCase()}.com.au`,
    archived: false,
    apiKey: `key-${ticker}`,
    pollAsx: true,
    subscriptionExpired: false,
    emailMarketing: null,
    invoice: null,
    repeatingInvoice: null,
    ...overrides,
  };
}

/** The client-facing form of `ticker` (ASX unless `overrides.exchange` says otherwise) for tests. */
export function clientStockDto(ticker: string, overrides: Partial<ClientStockDto> = {}): ClientStockDto {
  const exchange = overrides.exchange ?? 'ASX';
  return {
    id: `id-${ticker}`,
    combinedTicker: `${ticker}:${exchange}`,
    ticker,
    exchange,
    companyName: `${ticker} Ltd`,
    created: '2023-01-01T00:00:00.000Z',
    apiKey: `key-${ticker}`,
    websiteUrl: `${ticker.toLowerCase()}.com.au`,
    confirmationEmail: '',
    contactEmail: '',
    announcementNotificationEmails: '',
    sendPriceSensitiveAnnouncements: false,
    sendNonPriceSensitiveAnnouncements: false,
    autoSendAnnouncementEmail: false,
    autoSendNonPriceSensitiveAnnouncements: false,
    autoSendFilter: '',
    moderatorEmail: '',
    companyLogoUrl: '',
    announcementCommentTemplate: '',
    completedInitialPoll: true,
    roles: ['ViewConfig'],
    emailMarketing: null,
    invoiceId: null,
    invoiceTotal: null,
    invoiceStatus: null,
    invoiceDate: null,
    invoiceNumber: null,
    ...overrides,
  };
}

/** `value` without `keys`: a response the gateway stripped fields from (roles the caller lacks). */
export function without<T extends object, K extends keyof T>(value: T, ...keys: K[]): Omit<T, K> {
  const copy: Partial<T> = { ...value };
  for (const key of keys) delete copy[key];
  return copy as Omit<T, K>;
}
