import { z } from 'zod';
import { StockId } from '../common/session';

/**
 * Internal work of the email-marketing service's `sender` role: a batch of an announcement send's deliveries
 * (rows already in Postgres, claimed before SMTP), keyed per batch so a send's batches spread over the sender
 * instances' partitions. On `email.priority-deliveries-queued` for a price-sensitive announcement's send (the
 * priority lane, ADR 0016), else on `email.deliveries-queued`.
 */
export const DeliveriesQueuedEventSchema = z.object({
  sendId: z.string().uuid(),
  stockId: StockId.nullable(),
  deliveryIds: z.array(z.string().uuid()).min(1).max(1000),
});
export type DeliveriesQueuedEvent = z.infer<typeof DeliveriesQueuedEventSchema>;

/**
 * Internal work of the `sender` role: the rest of an announcement send's deliveries, after its first batch
 * (written, announced and admitted when its request was handled, so its first mails never wait for a large
 * list's rows: docs/adr/0019). Taken in a consumer of its own (`email-marketing.sender.expansions`).
 */
export const SendExpansionRequestedEventSchema = z.object({
  sendId: z.string().uuid(),
  stockId: StockId,
  /** The send's lane (ADR 0016): where its batches go. */
  priceSensitive: z.boolean(),
});
export type SendExpansionRequestedEvent = z.infer<typeof SendExpansionRequestedEventSchema>;

/**
 * Mail was accepted for an announcement (published by this service, after each chunk of a send): a fact for
 * whoever listens. Who was mailed is this service's own record (`email-marketing.send-history`, ADR 0013):
 * no service keeps a copy of it from this event.
 */
export const AnnouncementDeliveredEventSchema = z.object({
  stockId: StockId,
  sendGuid: z.string().uuid(),
  timestamp: z.string().datetime(),
  emailAddresses: z.array(z.string()),
  /**
   * Alert latency, on the first report of a send to subscribers: release time at the source -> the first
   * subscriber mail accepted by SMTP, in milliseconds.
   */
  alertLatencyMs: z.number().int().optional(),
});
export type AnnouncementDeliveredEvent = z.infer<typeof AnnouncementDeliveredEventSchema>;
