import { Topics } from '@irp/proto';

// What email-marketing decides about a send without I/O: which requests are the same (idempotency keys),
// which deliveries go in which batch message and lane, who is still mailed, and the
// retry schedule of a failed delivery. The repositories store what these decide; the tests are beside.

/** Deliveries per `email.deliveries-queued` message: the unit of work a sender instance takes. */
export const DELIVERY_BATCH = 250;

/** Longest wait before a delivery's next attempt. */
export const MAX_RETRY_DELAY_MS = 3_600_000;

/**
 * The two lanes of delivery work (docs/adr/0016): a price-sensitive announcement's mails go in `priority`,
 * every other mail (routine announcements, confirmation, notification and staff mails) in `routine`.
 */
export type Lane = 'priority' | 'routine';

export const laneOf = (send: { priceSensitive: boolean }): Lane =>
  send.priceSensitive ? 'priority' : 'routine';

/** The topic of a lane's batch messages: the priority lane's own, which senders take ahead of the routine one. */
export const batchTopicOf = (lane: Lane) =>
  lane === 'priority' ? Topics.EmailPriorityDeliveriesQueued : Topics.EmailDeliveriesQueued;

/**
 * How a sender groups its `sent` marks (SentMarks): half its slots, or 5 ms after the first mark, so about half
 * the slots stay on SMTP while the others wait for their mark, and a quiet sender's lone mark waits 5 ms at most.
 */
export const markGroupingOf = (sendConcurrency: number) => ({
  groupAt: Math.max(1, Math.floor(sendConcurrency / 2)),
  waitMs: 5,
});

/** The channels one `announcement.send-requested` fans out to. */
export type SendChannel = 'email' | 'email-marketing';

/**
 * The send row's key for one channel of one request: a redelivered request finds its send and does
 * nothing, so an announcement is never mailed twice for one request.
 */
export const sendRequestKey = (requestId: string, channel: SendChannel): string =>
  `announcement:${requestId}:${channel}`;

/**
 * The outbox key of a send's batch message `index`: keyed per batch, not per send, so a large send's
 * batches spread over every sender's partitions. A sweeper's re-queue is keyed apart from the first.
 */
export const batchKey = (sendId: string, index: number, retry = false): string =>
  retry ? `${sendId}:retry:${index}` : `${sendId}:${index}`;

/** The recipients of a fixed mail: trimmed, blanks dropped, each address once (first spelling kept). */
export const uniqueRecipients = (recipients: readonly string[]): string[] => [
  ...new Set(recipients.map((r) => r.trim()).filter(Boolean)),
];

/**
 * Whether an announcement delivery is still mailed: its subscriber is still there (the mail's unsubscribe
 * links are made from its id) and confirmed. Someone who unsubscribed, or was removed, since the send was
 * expanded is skipped. Fixed mails (confirmation, notification, error) have no subscriber and are always mailed.
 */
export function stillSubscribed(subscriber: { status: string | null; id: string | null }): boolean {
  return subscriber.status === 'confirmed' && !!subscriber.id;
}

/** Delay before retry `attempt` (1-based) of a delivery: base, 2×, 4× … capped at an hour. */
export const retryDelayMs = (attempt: number, baseMs: number): number =>
  Math.min(baseMs * 2 ** Math.max(0, attempt - 1), MAX_RETRY_DELAY_MS);

/** What becomes of a delivery the SMTP server did not accept. */
export type FailedDelivery = { status: 'failed' } | { status: 'queued'; retryInMs: number };

/**
 * A permanent refusal (5xx: no such mailbox …) fails the delivery at once; a transient one (4xx, a lost
 * connection) is queued again after `retryDelayMs` until the attempt that used the last of `maxAttempts`.
 */
export function afterFailure(
  failure: { permanent: boolean },
  attempts: number,
  policy: { maxAttempts: number; retryBaseMs: number },
): FailedDelivery {
  if (failure.permanent || attempts >= policy.maxAttempts) return { status: 'failed' };
  return { status: 'queued', retryInMs: retryDelayMs(attempts, policy.retryBaseMs) };
}
