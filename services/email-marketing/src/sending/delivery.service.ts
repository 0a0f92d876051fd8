import { createLogger, Outbox, SERVICE_CONFIG, ServiceConfigBase } from '@irp/platform';
import { Topics } from '@irp/proto';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { EmailMarketingConfig } from '../config';
import { Mailer, SmtpError } from '../mail/mailer';
import { announcementMail, MailContent } from '../mail/templates';
import { subscriptionLinks } from '../subscribers/links';
import { mailsAccepted, mailsFailed } from './metrics';
import { chunks, retryDelayMs, Semaphore, SendMessage } from './send-message';

const log = createLogger('sender');

/**
 * Alert latency is recorded for news: an announcement mailed more than this many days after its release
 * (an old one sent by hand) has none.
 */
export const ALERT_LATENCY_MAX_DAYS = 7;

/** Accepted deliveries of a batch are reported (sendHistory) after every this many. */
const REPORT_EVERY = 250;

interface ClaimedDelivery {
  id: string;
  send_id: string;
  kind: string;
  email: string;
  attempts: number;
  unsubscribe_token: string | null;
  subscriber_status: string | null;
}

/**
 * Sends a batch of an announcement's deliveries. Each delivery is claimed in Postgres (status `sending`
 * with a lease) before SMTP and marked `sent` as soon as the server accepts it, so a redelivered batch or a
 * second sender skips it, and a sender that dies leaves at most its in-flight mails unmarked: the sweeper
 * takes claims whose lease ran out and sends those again (the only duplicates there can be). Accepted
 * addresses are reported (`announcement.delivered`, through the outbox) after each chunk.
 */
@Injectable()
export class DeliveryService {
  private readonly messages = new Map<string, SendMessage>();
  /** Which sender claimed a delivery (operations read it in the table; the scale test checks the split). */
  private readonly instance: string;
  /** SMTP slots of this process, shared by every batch it works on at once (partitions run concurrently). */
  private readonly slots: Semaphore;
  /** Accepted mails waiting for their `sent` mark, written together (one statement per group). */
  private pendingMarks: Array<{ id: string; messageId: string; done: (err?: unknown) => void }> = [];
  private flushTimer?: NodeJS.Timeout;

  constructor(
    private readonly dataSource: DataSource,
    private readonly mailer: Mailer,
    private readonly outbox: Outbox,
    @Inject(SERVICE_CONFIG) private readonly config: EmailMarketingConfig & ServiceConfigBase,
  ) {
    this.instance = config.INSTANCE_ID;
    this.slots = new Semaphore(config.SEND_CONCURRENCY);
  }

  /**
   * A delivery is claimed only when an SMTP slot is free for it (the slots free at one moment are claimed in
   * one statement), so a sender never holds more claims than mails in flight: a claim cannot outlive its
   * lease waiting in a queue and be taken and sent again by a second sender while this one still sends it.
   */
  async sendBatch(sendId: string, deliveryIds: string[]): Promise<void> {
    const message = await this.messageOf(sendId);
    for (const ids of chunks(deliveryIds, REPORT_EVERY)) {
      const inFlight: Array<Promise<void>> = [];
      const waiting = [...ids];
      let failure: { error: unknown } | undefined;
      while (waiting.length && !failure) {
        const slots = await this.slots.acquire(waiting.length);
        let claimed: ClaimedDelivery[];
        try {
          claimed = await this.claim(waiting.splice(0, slots));
        } catch (error) {
          this.slots.release(slots);
          failure = { error };
          break;
        }
        // Ids sent or claimed elsewhere already need no slot.
        this.slots.release(slots - claimed.length);
        for (const d of claimed)
          inFlight.push(
            this.deliver(d, message)
              .catch((error: unknown) => void (failure ??= { error }))
              .finally(() => this.slots.release(1)),
          );
      }
      // A failed mark or claim fails the batch (Kafka redelivers it) once what is in flight has settled.
      await Promise.all(inFlight);
      if (failure) throw failure.error;
      await this.report(sendId);
    }
  }

  private async claim(ids: string[]): Promise<ClaimedDelivery[]> {
    return this.dataSource.query(
      `WITH claimed AS (
         UPDATE email_marketing.deliveries
         SET status = 'sending', attempts = attempts + 1, claimed_by = $3,
             lease_until = now() + make_interval(secs => $2::float8 / 1000)
         WHERE id = ANY($1::uuid[])
           AND ((status = 'queued' AND not_before <= now()) OR (status = 'sending' AND lease_until < now()))
         RETURNING id, send_id, email, attempts, subscriber_id
       )
       SELECT c.id, c.send_id, c.email, c.attempts, s.unsubscribe_token, s.status AS subscriber_status, x.kind
       FROM claimed c
       JOIN email_marketing.sends x ON x.id = c.send_id
       LEFT JOIN email_marketing.subscribers s ON s.id = c.subscriber_id`,
      [ids, this.config.DELIVERY_LEASE_MS, this.instance],
    );
  }

  private async messageOf(sendId: string): Promise<SendMessage> {
    let message = this.messages.get(sendId);
    if (!message) {
      const [row]: Array<{ message: SendMessage }> = await this.dataSource.query(
        `SELECT message FROM email_marketing.sends WHERE id = $1`,
        [sendId],
      );
      message = row.message;
      if (this.messages.size > 100) this.messages.clear();
      this.messages.set(sendId, message);
    }
    return message;
  }

  /** The mail of one delivery: an announcement with the subscriber's own unsubscribe links, or the fixed mail. */
  private mailOf(d: ClaimedDelivery, message: SendMessage): MailContent | null {
    if (message.kind === 'mail') return message.content;
    // Unsubscribed (or removed) since the send was expanded: not mailed.
    if (d.subscriber_status !== 'confirmed' || !d.unsubscribe_token) return null;
    const links = subscriptionLinks(this.config.PUBLIC_BASE_URL, d.unsubscribe_token);
    return announcementMail({
      stock: message.stock,
      announcement: message.announcement,
      publicBaseUrl: this.config.PUBLIC_BASE_URL,
      unsubscribeUrl: links.unsubscribeUrl,
      oneClickUrl: links.oneClickUrl,
    });
  }

  private async deliver(d: ClaimedDelivery, message: SendMessage): Promise<void> {
    const mail = this.mailOf(d, message);
    if (!mail) {
      await this.dataSource.query(
        `UPDATE email_marketing.deliveries SET status = 'skipped', lease_until = NULL, last_error = $2 WHERE id = $1`,
        [d.id, 'Unsubscribed before sending'],
      );
      return;
    }
    let accepted: { messageId: string };
    try {
      accepted = await this.mailer.send(d.email, mail);
    } catch (err) {
      const failure = err instanceof SmtpError ? err : new SmtpError(String(err), false);
      const final = failure.permanent || d.attempts >= this.config.DELIVERY_MAX_ATTEMPTS;
      await this.dataSource.query(
        final
          ? `UPDATE email_marketing.deliveries SET status = 'failed', lease_until = NULL, last_error = $2 WHERE id = $1`
          : `UPDATE email_marketing.deliveries
             SET status = 'queued', lease_until = NULL, last_error = $2,
                 not_before = now() + make_interval(secs => $3::float8 / 1000)
             WHERE id = $1`,
        final
          ? [d.id, failure.message]
          : [d.id, failure.message, retryDelayMs(d.attempts, this.config.DELIVERY_RETRY_BASE_MS)],
      );
      if (final) mailsFailed.inc({ kind: d.kind });
      log.warn({ deliveryId: d.id, attempts: d.attempts, final, reply: failure.message }, 'delivery failed');
      return;
    }
    // The slot is held until the mark is written: accepted-but-unmarked mails never exceed the slots. A mark
    // that fails (the database away) is no failed attempt of the mail: it fails the batch, which the handler
    // retry policy tries again; the claim's lease runs out and the sweeper queues the delivery once more.
    await this.markSent(d.id, accepted.messageId);
    mailsAccepted.inc({ kind: d.kind });
  }

  /**
   * Marks an accepted mail `sent`: marks arriving together are written in one statement (group commit),
   * flushed when every slot is waiting on one or after 2 ms, whichever is first.
   */
  private markSent(id: string, messageId: string): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.pendingMarks.push({ id, messageId, done: (err) => (err ? reject(err) : resolve()) });
      if (this.pendingMarks.length >= this.config.SEND_CONCURRENCY) void this.flushMarks();
      else this.flushTimer ??= setTimeout(() => void this.flushMarks(), 2);
    });
  }

  private async flushMarks(): Promise<void> {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    const marks = this.pendingMarks.splice(0);
    if (!marks.length) return;
    try {
      await this.dataSource.query(
        `UPDATE email_marketing.deliveries d
         SET status = 'sent', accepted_at = now(), message_id = m.message_id, lease_until = NULL, last_error = NULL
         FROM unnest($1::uuid[], $2::text[]) AS m(id, message_id)
         WHERE d.id = m.id`,
        [marks.map((m) => m.id), marks.map((m) => m.messageId)],
      );
      for (const m of marks) m.done();
    } catch (err) {
      for (const m of marks) m.done(err);
    }
  }

  /**
   * Reports a send's accepted, unreported deliveries as one `announcement.delivered` (sendHistory), in the
   * transaction that marks them reported; the first report carries the alert latency.
   */
  async report(sendId: string): Promise<number> {
    return this.dataSource.transaction(async (m) => {
      const rows: Array<{ id: string; email: string; accepted_at: Date }> = await m.query(
        `SELECT d.id, d.email, d.accepted_at FROM email_marketing.deliveries d
         JOIN email_marketing.sends x ON x.id = d.send_id AND x.kind = 'announcement'
         WHERE d.send_id = $1 AND d.status = 'sent' AND NOT d.reported
         ORDER BY d.accepted_at LIMIT 5000 FOR UPDATE OF d SKIP LOCKED`,
        [sendId],
      );
      if (!rows.length) return 0;
      await m.query(`UPDATE email_marketing.deliveries SET reported = true WHERE id = ANY($1::uuid[])`, [
        rows.map((r) => r.id),
      ]);
      const [send]: Array<{ stock_id: string; send_guid: string; alert_latency_ms: number | null }> =
        await m.query(
          `WITH changed AS (UPDATE email_marketing.sends
         SET first_accepted_at = COALESCE(first_accepted_at, $2),
             alert_latency_ms = COALESCE(alert_latency_ms,
               CASE WHEN $2::timestamptz - released_at < make_interval(days => $3)
                    THEN GREATEST(0, (extract(epoch FROM ($2::timestamptz - released_at)) * 1000)::int) END)
         WHERE id = $1
         RETURNING stock_id, send_guid, CASE WHEN first_accepted_at = $2 THEN alert_latency_ms END AS alert_latency_ms) SELECT * FROM changed`,
          [sendId, rows[0].accepted_at, ALERT_LATENCY_MAX_DAYS],
        );
      await this.outbox.add(m, Topics.AnnouncementDelivered, send.stock_id, {
        stockId: send.stock_id,
        sendGuid: send.send_guid,
        timestamp: rows[rows.length - 1].accepted_at.toISOString(),
        emailAddresses: rows.map((r) => r.email),
        ...(send.alert_latency_ms !== null ? { alertLatencyMs: send.alert_latency_ms } : {}),
      });
      return rows.length;
    });
  }
}
