import { z } from 'zod';
import { AnnouncementDeliveryStateSchema, StoredAnnouncementSchema } from '../announcements/records';
import { nextPageField, pageRequestFields } from '../common/paging';
import { StockId } from '../common/session';
import { sealedOrKept } from '../common/sealed';
import { ActorSchema } from '../stocks/stock';
import {
  EmailMarketingProviderSchema,
  EmailMarketingSettingsSchema,
  EmailMarketingSettingsViewSchema,
  SUBSCRIBER_PAGE_MAX,
  SubscriberChoicesSchema,
  SubscriberCountsSchema,
  SubscriberSchema,
  SubscriberStatusSchema,
  SubscriptionPreferenceSchema,
  DeliverabilitySchema,
} from './records';
import { API_KEY_MASK, DELIVERABILITY_MAX_DAYS, MAX_PAUSE_WEEKS } from './rules';

/**
 * Request/reply messages of the email-marketing service. The gateway has checked roles; stocks are named by
 * id (the service keeps its own projection of the stocks from `stock.upserted`).
 */

export const GetEmailMarketingSettingsRequestSchema = z.object({ stockId: StockId });
export const EmailMarketingSettingsReplySchema = z.object({
  stockId: StockId,
  /** null when the stock has none saved yet; the API key masked (write-only). */
  settings: EmailMarketingSettingsViewSchema.nullable(),
});

/**
 * A provider API key as it crosses the bus (issue 34): sealed for this service by the gateway, or blank / the
 * mask, both meaning the stock's stored key.
 */
export const BusProviderKeySchema = sealedOrKept(API_KEY_MASK);
const BusSettingsSchema = EmailMarketingSettingsSchema.extend({ apiKey: BusProviderKeySchema });

export const SaveEmailMarketingSettingsRequestSchema = z.object({
  actor: ActorSchema,
  stockId: StockId,
  settings: BusSettingsSchema,
});

/**
 * The provider's subscriber count of a list, with the keys as typed (not necessarily saved yet); an API key
 * blank or the mask is the stock's stored one.
 */
export const SubscriberCountRequestSchema = z.object({
  stockId: StockId.nullable(),
  /** Omitted: the stock's saved provider type, else the first type. */
  provider: EmailMarketingProviderSchema.optional(),
  apiKey: BusProviderKeySchema,
  listId: z.string().max(100),
  clientId: z.string().max(100),
});
export const SubscriberCountReplySchema = z.object({ count: z.number().int() });

/**
 * Send Test Email (`mode: 'test'`: a campaign of the stock's latest announcement, test-sent to the test
 * addresses) or Send To Subscribers (`mode: 'subscribers'`, admins: the campaign sent to the list, refused
 * when the list has more than 5 subscribers). The settings as typed on the tab; a field left out is the
 * stock's saved one (spec section 7's body carries no email-marketing key: the saved key is used).
 */
export const TestSendRequestSchema = z.object({
  actor: ActorSchema,
  stockId: StockId,
  mode: z.enum(['test', 'subscribers']),
  settings: BusSettingsSchema.partial(),
  /** The campaign's content: the stock's latest announcement (the gateway looks it up), or null for a sample. */
  announcement: StoredAnnouncementSchema.nullable(),
});
export type TestSendRequest = z.infer<typeof TestSendRequestSchema>;
export const TestSendReplySchema = z.object({
  previewUrl: z.string().nullable(),
  /** 'Test sent successfully.' or 'Campaign created successfully.' */
  message: z.string(),
});

/** The system settings' test email (POST /api/admin/sendEmail). */
export const SendSystemEmailRequestSchema = z.object({ actor: ActorSchema, to: z.string().max(2000) });
export const SendSystemEmailReplySchema = z.object({ to: z.array(z.string()) });

/** An investor subscribes through the widget API (double opt-in: a confirmation mail is sent). */
export const SubscribeRequestSchema = z.object({
  /** The stock of the widget's API key (the gateway's widget context resolved it). */
  stockId: StockId,
  email: z.string().max(400),
  ip: z.string().max(100),
  userAgent: z.string().max(1000),
  /** What the investor chose on the subscribe form (every announcement when it offers no choice). */
  preference: SubscriptionPreferenceSchema.optional(),
});
/** The same answer for a new, a pending and a confirmed address (no enumeration through the widget). */
export const SubscribeReplySchema = z.object({ status: z.literal('pending'), message: z.string() });

/** Confirm (single-use token from the confirmation mail) or unsubscribe (token from any mail). */
export const SubscriptionTokenRequestSchema = z.object({ token: z.string().min(1).max(200) });
export const SubscriptionReplySchema = z.object({
  email: z.string(),
  companyName: z.string(),
  combinedTicker: z.string(),
  status: SubscriberStatusSchema,
  message: z.string(),
  preference: SubscriptionPreferenceSchema,
  pausedUntil: z.string().datetime().nullable(),
});

/**
 * The preference page's save (the token of any of the subscriber's mails): what to be mailed, and a pause
 * of `pauseWeeks` from now (0 ends a pause; absent leaves it as it is).
 */
export const SavePreferencesRequestSchema = z.object({
  token: z.string().min(1).max(200),
  preference: SubscriptionPreferenceSchema,
  pauseWeeks: z.number().int().min(0).max(MAX_PAUSE_WEEKS).optional(),
});

/**
 * What an unsubscribe link shows (who it is for: the company, never the address: a forwarded mail's link
 * must not tell its reader whose it was).
 */
export const UnsubscribeReplySchema = SubscriptionReplySchema.omit({ email: true });

export const ListSubscribersRequestSchema = z.object({
  stockId: StockId,
  /** Newest first: a page (common/paging.ts) or, without `limit`, every one. */
  ...pageRequestFields(SUBSCRIBER_PAGE_MAX),
});
export const SubscriberListReplySchema = z.object({
  subscribers: z.array(SubscriberSchema),
  /** The stock's counts by status, whatever the page. */
  counts: SubscriberCountsSchema,
  choices: SubscriberChoicesSchema,
  /** Where the next page starts (`after`), or null when this page was the last. */
  next: nextPageField,
});

/** The dashboards' Email marketing column: which stocks have email marketing set up. */
export const EmailMarketingDashboardRequestSchema = z.object({ stockIds: z.array(StockId).max(100_000) });
export const EmailMarketingDashboardReplySchema = z.object({
  stocks: z.record(StockId, z.object({ emailMarketing: z.boolean() })),
});

/**
 * Who was mailed a stock's announcements (docs/adr/0013): the gateway composes it into every announcement it
 * answers. `sendGuids` narrows to those announcements; without it, every announcement of the stock mailed.
 */
export const SendHistoryRequestSchema = z.object({
  stockId: StockId,
  sendGuids: z.array(z.string().uuid()).max(10_000).optional(),
});
/** The delivery state of each announcement asked for that was ever mailed; one not listed was not. */
export const SendHistoryReplySchema = z.object({
  announcements: z.array(AnnouncementDeliveryStateSchema.extend({ sendGuid: z.string().uuid() })),
});
export type SendHistoryReply = z.infer<typeof SendHistoryReplySchema>;

/** A stock's deliverability over its last `days` Sydney days (today included). */
export const DeliverabilityRequestSchema = z.object({
  stockId: StockId,
  days: z.number().int().min(1).max(DELIVERABILITY_MAX_DAYS),
});
export const DeliverabilityReplySchema = DeliverabilitySchema;
