import type { EditableStockField } from './fields';

/**
 * The one name of each stock field a person sees: the Config tabs (staff and client) label their inputs
 * with it, and the stocks service names a field with it in its messages ("Invalid email address in
 * Confirmation emails: x").
 */
export const STOCK_FIELD_LABELS = {
  ticker: 'Ticker',
  exchange: 'Exchange',
  isin: 'ISIN',
  companyName: 'Company name',
  pollAsx: 'Poll',
  sendPriceSensitiveAnnouncements: 'Email price-sensitive announcements',
  sendNonPriceSensitiveAnnouncements: 'Email non-price-sensitive announcements',
  autoSendAnnouncementEmail: 'Send price-sensitive announcements by email marketing',
  autoSendNonPriceSensitiveAnnouncements: 'Send non-price-sensitive announcements by email marketing',
  autoSendFilter: 'Auto-send filter',
  announcementStartYear: 'Poll start year',
  confirmationEmail: 'Confirmation emails',
  moderatorEmail: 'Moderator emails',
  contactEmail: 'Contact emails',
  billingDate: 'Billing date',
  websiteUrl: 'Website',
  apiKey: 'API key',
  announcementNotificationEmails: 'Announcement notification emails',
  accountingReference: 'Accounting reference',
  subscriptionExpired: 'Subscription Expired',
  companyLogoUrl: 'Company logo URL',
  announcementCommentTemplate: 'Announcement comment template',
  disableMarketData: 'Disable market data',
} as const satisfies Record<EditableStockField, string>;

/** The label of a field by name (version history rows name fields by their key). */
export const stockFieldLabel = (field: string): string =>
  (STOCK_FIELD_LABELS as Record<string, string>)[field] ?? field;
