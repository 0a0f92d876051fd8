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
