import { z } from 'zod';
import { StockId } from '../common/session';
import { AnnouncementOriginSchema, StoredAnnouncementSchema } from './records';

/** Events of the announcements service, keyed by stock id (one stock's events stay in order). */

/**
 * Progress of an initial poll: the year being read and how many announcements are stored so far. The
 * service's own record of a run's sign of life (its outbox keeps it; a run without one is handed back).
 * Whether a stock's initial poll completed is not an event: the gateway asks
 * `announcements.initial-poll-statuses` (this service alone keeps it).
 */
export const InitialPollProgressedEventSchema = z.object({
  stockId: StockId,
  at: z.string().datetime(),
  fromYear: z.number().int(),
  toYear: z.number().int(),
  currentYear: z.number().int(),
  found: z.number().int(),
});
export type InitialPollProgressedEvent = z.infer<typeof InitialPollProgressedEventSchema>;

/**
 * Internal work of the announcements service: a stock's initial poll to run (consumed by the poller role,
 * so a poller that dies mid-run hands it to another, which resumes where the stored announcements say).
 */
export const InitialPollRequestedEventSchema = z.object({
  stockId: StockId,
  runId: z.string().uuid(),
  ticker: z.string(),
  fromYear: z.number().int(),
  toYear: z.number().int(),
});
export type InitialPollRequestedEvent = z.infer<typeof InitialPollRequestedEventSchema>;

/** A source item carried by a market-wide poll's fan-out (so the poller of that stock need not fetch again). */
export const PolledItemSchema = z.object({
  sourceKey: z.string(),
  ticker: z.string(),
  headline: z.string(),
  releasedAt: z.string(),
  priceSensitive: z.boolean(),
  documentUrl: z.string(),
});

/**
 * Poll work (scheduler -> pollers, consumer group `announcements.poller`): one stock to poll, or (asx2) the
 * whole market once per interval (`market: true`, no stock), which the poller that takes it fans out by
 * ticker on `announcements.market-items-listed`.
 */
export const PollRequestedEventSchema = z.object({
  stockId: StockId.nullable(),
  ticker: z.string().nullable(),
  market: z.boolean(),
  /** The scheduler's tick: when this poll was due. */
  requestedAt: z.string().datetime(),
});
export type PollRequestedEvent = z.infer<typeof PollRequestedEventSchema>;

/**
 * A market read's items for one polled stock (asx2), keyed by the stock's id: the market poller's fan-out,
 * taken by the pollers in a consumer of their own (`announcements.poller.market-items`, docs/adr/0018), so a
 * stock's store never waits behind the next market read on the poll topic, nor that read behind the stores.
 */
export const MarketItemsListedEventSchema = z.object({
  stockId: StockId,
  ticker: z.string(),
  /** The tick of the market read that found them. */
  requestedAt: z.string().datetime(),
  /** What the stock has not stored yet; empty when only its documents are pending (tried again each read). */
  items: z.array(PolledItemSchema),
});
export type MarketItemsListedEvent = z.infer<typeof MarketItemsListedEventSchema>;

/** A new announcement was stored (the outbox publishes it in the transaction that stored it). */
export const AnnouncementDetectedEventSchema = z.object({
  stockId: StockId,
  combinedTicker: z.string(),
  origin: AnnouncementOriginSchema,
  announcement: StoredAnnouncementSchema,
  /** Release time at the source, for alert latency. */
  releasedAt: z.string().datetime(),
  detectedAt: z.string().datetime(),
});
export type AnnouncementDetectedEvent = z.infer<typeof AnnouncementDetectedEventSchema>;

export const SendChannelSchema = z.enum(['email', 'email-marketing']);

/**
 * Send an announcement (email issue: the email-marketing service's `sender` role consumes it). Carries what
 * the mail needs, so the sender does not call back.
 */
export const AnnouncementSendRequestedEventSchema = z.object({
  requestId: z.string().uuid(),
  stockId: StockId,
  combinedTicker: z.string(),
  channels: z.array(SendChannelSchema).min(1),
  override: z.boolean(),
  auto: z.boolean(),
  requestedBy: z.string(),
  requestedAt: z.string().datetime(),
  announcement: StoredAnnouncementSchema,
});
export type AnnouncementSendRequestedEvent = z.infer<typeof AnnouncementSendRequestedEventSchema>;

/** Send Confirmation Email: the announcement to the stock's confirmation emails. */
export const AnnouncementConfirmationRequestedEventSchema = z.object({
  requestId: z.string().uuid(),
  stockId: StockId,
  combinedTicker: z.string(),
  recipients: z.array(z.string()).min(1),
  requestedBy: z.string(),
  requestedAt: z.string().datetime(),
  announcement: StoredAnnouncementSchema,
});

/** Something staff must hear about, for the system settings' error email (sent by the email-marketing service). */
export const ErrorReportedEventSchema = z.object({
  /** Deduplicates: one report per key (e.g. one per failure streak). */
  key: z.string(),
  to: z.string(),
  subject: z.string(),
  message: z.string(),
  at: z.string().datetime(),
});
export type ErrorReportedEvent = z.infer<typeof ErrorReportedEventSchema>;

/**
 * The part of the system settings other services act on (docs/adr/0013): the error email, where the
 * email-marketing service sends the staff mails of other services' events. Published through the outbox when
 * the settings are saved and when the announcements service starts (so a new projection fills); `savedAt` is
 * the settings' own time, so a projection keeps the newest whatever order the events arrive in.
 */
export const SystemSettingsSavedEventSchema = z.object({
  errorEmail: z.string(),
  savedAt: z.string().datetime(),
});
export type SystemSettingsSavedEvent = z.infer<typeof SystemSettingsSavedEventSchema>;
