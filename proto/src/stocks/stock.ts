import { z } from 'zod';
import { SessionUserSchema, StockId } from '../common/session';

/** The stock as services and the web app exchange it (spec section 3 field names). */

/** Every field the stocks service owns (spec section 3). Text fields are '' when unset. */
export const StockSchema = z.object({
  id: StockId,
  ticker: z.string(),
  exchange: z.string(),
  combinedTicker: z.string(),
  isin: z.string(),
  companyName: z.string(),
  created: z.string().datetime(),
  archived: z.boolean(),
  pollAsx: z.boolean(),
  sendPriceSensitiveAnnouncements: z.boolean(),
  sendNonPriceSensitiveAnnouncements: z.boolean(),
  /** Email-marketing service, price-sensitive announcements. */
  autoSendAnnouncementEmail: z.boolean(),
  /** Email-marketing service, non-price-sensitive announcements. */
  autoSendNonPriceSensitiveAnnouncements: z.boolean(),
  autoSendFilter: z.string(),
  announcementStartYear: z.number().int(),
  confirmationEmail: z.string(),
  moderatorEmail: z.string(),
  contactEmail: z.string(),
  billingDate: z.string().datetime(),
  websiteUrl: z.string(),
  /** null when the stock has no API key yet. */
  apiKey: z.string().nullable(),
  announcementNotificationEmails: z.string(),
  accountingReference: z.string(),
  subscriptionExpired: z.boolean(),
  companyLogoUrl: z.string(),
  announcementCommentTemplate: z.string(),
  disableMarketData: z.boolean(),
  /**
   * The version history's versionId: increments with every recorded change (create, save, ticker change,
   * archive). Not an event sequence: order events by `updatedAt`.
   */
  version: z.number().int(),
  /**
   * When the stock last changed, versioned or not. Strictly increases with every `stock.upserted` of a
   * stock (never repeats, never goes back, whatever the clocks), so consumers keep the event with the
   * latest `updatedAt` and ignore older ones.
   */
  updatedAt: z.string().datetime(),
});
export type Stock = z.infer<typeof StockSchema>;

const nullableText = z
  .string()
  .max(4000)
  .nullish()
  .transform((v) => v ?? '');

/**
 * Stock fields as a save sends them. Everything optional: a create fills the spec's defaults, an update
 * changes only what is sent. Shapes are checked here; the rules (ticker, ISIN, emails, years) in the
 * stocks service, so every caller gets the same messages.
 */
export const StockFieldsSchema = z
  .object({
    ticker: z.string().max(20),
    exchange: z.string().max(10),
    isin: nullableText,
    companyName: nullableText,
    pollAsx: z.boolean(),
    sendPriceSensitiveAnnouncements: z.boolean(),
    sendNonPriceSensitiveAnnouncements: z.boolean(),
    autoSendAnnouncementEmail: z.boolean(),
    autoSendNonPriceSensitiveAnnouncements: z.boolean(),
    autoSendFilter: nullableText,
    announcementStartYear: z.coerce.number().int(),
    confirmationEmail: nullableText,
    moderatorEmail: nullableText,
    contactEmail: nullableText,
    billingDate: z.string().max(40),
    websiteUrl: nullableText,
    apiKey: z.string().max(100).nullable(),
    announcementNotificationEmails: nullableText,
    accountingReference: nullableText,
    subscriptionExpired: z.boolean(),
    companyLogoUrl: nullableText,
    announcementCommentTemplate: z
      .string()
      .max(20000)
      .nullish()
      .transform((v) => v ?? ''),
    disableMarketData: z.boolean(),
  })
  .partial();
export type StockFields = z.input<typeof StockFieldsSchema>;

/**
 * Who does a change: the signed-in user as the gateway knows them, with the gateway's signature
 * (`@irp/proto/signing`). The proof is optional here so that a service refuses an unsigned actor with a
 * clear reply (UNTRUSTED_ACTOR) rather than as a malformed message.
 */
export const ActorSchema = SessionUserSchema.extend({
  proof: z
    .object({ expiresAt: z.number().int(), messageId: z.string().max(100), signature: z.string().max(100) })
    .optional(),
});
export type Actor = z.infer<typeof ActorSchema>;
