import { z } from 'zod';
import { StockId } from '../common/session';

/**
 * Records of the email-marketing service: a stock's email-marketing settings (spec section 3), its
 * subscribers (double opt-in, consent evidence) and the state of an announcement's sends.
 */

/** The two provider types (vendor-apis.md): Mailchimp-type and Campaign-Monitor-type (names in rules.ts). */
export const EmailMarketingProviderSchema = z.enum(['mailchimp', 'campaign-monitor']);

/** Spec section 3: list id, API key, template id, reply-to, from name, saved segment id, client id, test addresses. */
export const EmailMarketingSettingsSchema = z.object({
  provider: EmailMarketingProviderSchema,
  listId: z.string().max(100),
  apiKey: z.string().max(200),
  templateId: z.string().max(100),
  replyTo: z.string().max(320),
  fromName: z.string().max(200),
  savedSegmentId: z.string().max(100),
  /** The second provider type only (Campaign-Monitor-type): the client the list belongs to. */
  clientId: z.string().max(100),
  /** Comma- or semicolon-separated addresses for Send Test Email. */
  testEmailAddresses: z.string().max(2000),
});
export type EmailMarketingSettings = z.infer<typeof EmailMarketingSettingsSchema>;

/**
 * The settings as they are shown (every answer of the settings routes): the provider's API key is
 * write-only, `API_KEY_MASK` when one is stored ('' when none), and `apiKeySet` says which.
 */
export const EmailMarketingSettingsViewSchema = EmailMarketingSettingsSchema.extend({
  apiKeySet: z.boolean(),
});
export type EmailMarketingSettingsView = z.infer<typeof EmailMarketingSettingsViewSchema>;

export const SubscriberStatusSchema = z.enum(['pending', 'confirmed', 'unsubscribed']);
export type SubscriberStatus = z.infer<typeof SubscriberStatusSchema>;

/**
 * Why an address is mailed no more, for every stock (issue 36): the mailbox does not exist (a hard bounce), its
 * owner reported a mail as spam (a complaint), or it refused mail again and again (SOFT_BOUNCE_LIMIT soft
 * bounces within SOFT_BOUNCE_WINDOW_DAYS).
 */
export const SuppressionReasonSchema = z.enum(['hard-bounce', 'complaint', 'soft-bounce']);
export type SuppressionReason = z.infer<typeof SuppressionReasonSchema>;

/** An address's suppression: why, since when, and what the receiving side said (the DSN's status, ...). */
export const SuppressionSchema = z.object({
  reason: SuppressionReasonSchema,
  since: z.string().datetime(),
  detail: z.string(),
});
export type Suppression = z.infer<typeof SuppressionSchema>;

/**
 * What an investor chose to be mailed (issue 36's preference centre): every announcement, or the
 * price-sensitive ones only. A change applies to the next send.
 */
export const SubscriptionPreferenceSchema = z.enum(['all', 'price-sensitive']);
export type SubscriptionPreference = z.infer<typeof SubscriptionPreferenceSchema>;

/** An investor subscribed to a stock's announcements by email (double opt-in). */
export const SubscriberSchema = z.object({
  id: z.string().uuid(),
  stockId: StockId,
  email: z.string(),
  status: SubscriberStatusSchema,
  /** Consent evidence: when and from where the subscription was asked, and when it was confirmed. */
  subscribedAt: z.string().datetime(),
  consentIp: z.string(),
  consentUserAgent: z.string(),
  confirmedAt: z.string().datetime().nullable(),
  unsubscribedAt: z.string().datetime().nullable(),
  preference: SubscriptionPreferenceSchema,
  /** Mailed nothing until then (the investor paused the mails from the preference page). */
  pausedUntil: z.string().datetime().nullable(),
  /** Set when the address is suppressed: it is mailed no announcement whatever its status. */
  suppressed: SuppressionSchema.nullable(),
});
export type Subscriber = z.infer<typeof SubscriberSchema>;

export const SubscriberCountsSchema = z.object({
  pending: z.number().int(),
  confirmed: z.number().int(),
  unsubscribed: z.number().int(),
});
export type SubscriberCounts = z.infer<typeof SubscriberCountsSchema>;

/**
 * Of a stock's confirmed subscribers: how many chose each preference, how many have paused their mails now,
 * and how many addresses are suppressed (bounced or complained).
 */
export const SubscriberChoicesSchema = z.object({
  all: z.number().int(),
  'price-sensitive': z.number().int(),
  paused: z.number().int(),
  suppressed: z.number().int(),
});
export type SubscriberChoices = z.infer<typeof SubscriberChoicesSchema>;

export const DeliveryStatusSchema = z.enum(['queued', 'sending', 'sent', 'failed', 'skipped']);
export type DeliveryStatus = z.infer<typeof DeliveryStatusSchema>;

/**
 * A stock's subscribers are read a page at a time (common/paging.ts): the staff list shows the newest
 * SUBSCRIBER_PAGE_SIZE at once and loads the rest after them, SUBSCRIBER_PAGE_MAX at a time.
 */
export const SUBSCRIBER_PAGE_SIZE = 500;
/** The largest page a request may ask for. */
export const SUBSCRIBER_PAGE_MAX = 5_000;

/** One Sydney day of a stock's announcement mail (issue 36's deliverability panel). */
export const DeliverabilityDaySchema = z.object({
  /** YYYY-MM-DD, Sydney time. */
  day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  /** Mails given to SMTP (accepted or refused for good) of the sends made that day. */
  sent: z.number().int(),
  /** Of those, accepted by the SMTP server. */
  accepted: z.number().int(),
  /** Bounces (hard and soft) and spam complaints reported that day. */
  bounced: z.number().int(),
  complained: z.number().int(),
  /** Subscribers of the stock who unsubscribed that day. */
  unsubscribed: z.number().int(),
});
export type DeliverabilityDay = z.infer<typeof DeliverabilityDaySchema>;

/** The alert latency of one announcement: its release to its first mail accepted. */
export const AlertLatencySchema = z.object({
  sendGuid: z.string(),
  headline: z.string(),
  firstAcceptedAt: z.string().datetime(),
  alertLatencyMs: z.number().int(),
});
export type AlertLatency = z.infer<typeof AlertLatencySchema>;

/** A stock's deliverability over its last days: per day, the totals, the complaint rate, the alert latencies. */
export const DeliverabilitySchema = z.object({
  days: z.array(DeliverabilityDaySchema),
  totals: DeliverabilityDaySchema.omit({ day: true }),
  /** Complaints per accepted mail over the days (null when none was accepted): the large providers' 0.3%. */
  complaintRate: z.number().nullable(),
  /** The latest announcements' alert latencies, newest first. */
  alerts: z.array(AlertLatencySchema),
});
export type Deliverability = z.infer<typeof DeliverabilitySchema>;
