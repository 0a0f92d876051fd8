import type { ClientStockDto, StockRowDto } from '@irp/proto';

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
