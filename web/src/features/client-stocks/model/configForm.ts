import { CLIENT_STOCK_FIELDS, REPLY_TO_COMMENT_FIELDS, StockRole, type ClientStockDto } from '@irp/proto';

export type ClientConfigField =
  (typeof CLIENT_STOCK_FIELDS)[number] | (typeof REPLY_TO_COMMENT_FIELDS)[number];
export type ClientConfigValues = Pick<ClientStockDto, ClientConfigField>;

export const CONFIG_SWITCHES = [
  'sendPriceSensitiveAnnouncements',
  'sendNonPriceSensitiveAnnouncements',
  'autoSendAnnouncementEmail',
  'autoSendNonPriceSensitiveAnnouncements',
] as const satisfies readonly ClientConfigField[];
export type ConfigSwitch = (typeof CONFIG_SWITCHES)[number];
export type ConfigTextField = Exclude<ClientConfigField, ConfigSwitch>;

/** Labels of the Config tab (spec section 2, Config tab fields). */
export const CONFIG_LABELS: Record<ClientConfigField, string> = {
  companyName: 'Company name',
  websiteUrl: 'Website',
  confirmationEmail: 'Confirmation emails',
  contactEmail: 'Contact emails',
  announcementNotificationEmails: 'Announcement notification emails',
  sendPriceSensitiveAnnouncements: 'Send price-sensitive announcements by Email',
  sendNonPriceSensitiveAnnouncements: 'Send non-price-sensitive announcements by Email',
  autoSendAnnouncementEmail: 'Send price-sensitive announcements by Email marketing',
  autoSendNonPriceSensitiveAnnouncements: 'Send non-price-sensitive announcements by Email marketing',
  autoSendFilter: 'Auto-send filter',
  moderatorEmail: 'Moderator emails',
  companyLogoUrl: 'Company logo URL',
  announcementCommentTemplate: 'Announcement comment template',
};

/**
 * The fields this user may change on this stock: the client subset, plus the moderator, logo and
 * template fields with ReplyToComment (spec section 6). The server enforces the same (403).
 */
export function editableConfigFields(roles: readonly string[]): ClientConfigField[] {
  return roles.includes(StockRole.ReplyToComment)
    ? [...CLIENT_STOCK_FIELDS, ...REPLY_TO_COMMENT_FIELDS]
    : [...CLIENT_STOCK_FIELDS];
}

export function configValuesOf(stock: ClientStockDto): ClientConfigValues {
  const values: Partial<ClientConfigValues> = {};
  for (const field of [...CLIENT_STOCK_FIELDS, ...REPLY_TO_COMMENT_FIELDS]) {
    Object.assign(values, { [field]: stock[field] });
  }
  return values as ClientConfigValues;
}

export function changedConfigFields(
  saved: ClientConfigValues,
  edited: ClientConfigValues,
  fields: readonly ClientConfigField[],
): ClientConfigField[] {
  return fields.filter((field) => saved[field] !== edited[field]);
}

/** POST /api/ClientStock body: the stock and only the fields this user may change. */
export function clientSaveBody(
  combinedTicker: string,
  values: ClientConfigValues,
  fields: readonly ClientConfigField[],
): { combinedTicker: string } & Partial<ClientConfigValues> {
  const body: { combinedTicker: string } & Partial<ClientConfigValues> = { combinedTicker };
  for (const field of fields) Object.assign(body, { [field]: values[field] });
  return body;
}
