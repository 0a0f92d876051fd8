import type { Stock } from './stock';

/**
 * The stock's field lists. No zod here: the web app bundles every module it imports from whole, and it
 * needs these lists, not the schemas.
 */

/** Fields a save may set (everything but identity, derived and bookkeeping fields). */
export const EDITABLE_STOCK_FIELDS = [
  'ticker',
  'exchange',
  'isin',
  'companyName',
  'pollAsx',
  'sendPriceSensitiveAnnouncements',
  'sendNonPriceSensitiveAnnouncements',
  'autoSendAnnouncementEmail',
  'autoSendNonPriceSensitiveAnnouncements',
  'autoSendFilter',
  'announcementStartYear',
  'confirmationEmail',
  'moderatorEmail',
  'contactEmail',
  'billingDate',
  'websiteUrl',
  'apiKey',
  'announcementNotificationEmails',
  'accountingReference',
  'subscriptionExpired',
  'companyLogoUrl',
  'announcementCommentTemplate',
  'disableMarketData',
] as const satisfies readonly (keyof Stock)[];
export type EditableStockField = (typeof EDITABLE_STOCK_FIELDS)[number];

/**
 * What a client user (not Admin) may change on the client Config tab (spec section 5: "Client (non-admin)
 * save sends only a subset of stock fields"), given ViewConfig on the stock.
 */
export const CLIENT_STOCK_FIELDS = [
  'companyName',
  'websiteUrl',
  'confirmationEmail',
  'contactEmail',
  'announcementNotificationEmails',
  'sendPriceSensitiveAnnouncements',
  'sendNonPriceSensitiveAnnouncements',
  'autoSendAnnouncementEmail',
  'autoSendNonPriceSensitiveAnnouncements',
  'autoSendFilter',
] as const satisfies readonly EditableStockField[];

/** Spec section 6: ReplyToComment "may edit moderator emails, logo and comment template of the stock". */
export const REPLY_TO_COMMENT_FIELDS = [
  'moderatorEmail',
  'companyLogoUrl',
  'announcementCommentTemplate',
] as const satisfies readonly EditableStockField[];

/**
 * The client form's fields that are the stock's configuration (everything on the client Config tab but
 * the company name and website, which every role on the stock sees): ViewConfig (spec section 6) sees them.
 */
export const CLIENT_CONFIG_FIELDS = [
  'apiKey',
  ...CLIENT_STOCK_FIELDS.filter(
    (f): f is Exclude<(typeof CLIENT_STOCK_FIELDS)[number], 'companyName' | 'websiteUrl'> =>
      f !== 'companyName' && f !== 'websiteUrl',
  ),
] as const;

/** The invoice columns of the client form (spec section 3): Invoicing sees them. */
export const CLIENT_INVOICE_FIELDS = [
  'invoiceId',
  'invoiceTotal',
  'invoiceStatus',
  'invoiceDate',
  'invoiceNumber',
] as const;

/**
 * The client form's fields a caller may lack the role for: the gateway strips them per stock (the
 * `restricted` rules of the client stock routes), so a client stock may come without them.
 */
export const ROLE_RESTRICTED_CLIENT_FIELDS = [
  ...CLIENT_CONFIG_FIELDS,
  ...REPLY_TO_COMMENT_FIELDS,
  ...CLIENT_INVOICE_FIELDS,
] as const;

/** What a client save may send: the client fields and the ReplyToComment fields. */
export const CLIENT_SAVE_FIELDS = [...CLIENT_STOCK_FIELDS, ...REPLY_TO_COMMENT_FIELDS] as const;
export type ClientSaveField = (typeof CLIENT_SAVE_FIELDS)[number];

/**
 * What report-runners see of a stock (spec section 2: "Report-runner columns: Ticker, Created, Website");
 * the gateway strips the other fields, so they never leave it for them.
 */
export const STOCK_SUMMARY_FIELDS = [
  'id',
  'ticker',
  'exchange',
  'combinedTicker',
  'companyName',
  'created',
  'websiteUrl',
  'archived',
] as const satisfies readonly (keyof Stock)[];
