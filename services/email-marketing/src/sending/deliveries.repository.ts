import { Tx } from '@irp/platform';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** A delivery a sender claimed, with what its mail needs. */
export interface ClaimedDelivery {
  id: string;
  send_id: string;
  kind: string;
  email: string;
  attempts: number;
  /** The subscriber of an announcement delivery (null once removed, and for fixed mails). */
  subscriber_id: string | null;
  subscriber_status: string | null;
}

/** An accepted delivery not yet reported in sendHistory. */
export interface AcceptedDelivery {
  id: string;
  email: string;
  accepted_at: Date;
}

/**
 * Deliveries (one per send and address): queued, claimed with a lease before SMTP, marked after; the only
 * place that queries their table.
 */
@Injectable()
export class DeliveriesRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** One delivery per confirmed subscriber of the stock (each address once); the new ids. */
  async queueForSubscribers(tx: Tx, sendId: string, stockId: string): Promise<string[]> {
    const rows: Array<{ id: string }> = await tx.query(
      `INSERT INTO email_marketing.deliveries (send_id, subscriber_id, email)
       SELECT $1, s.id, s.email FROM email_marketing.subscribers s
       WHERE s.stock_id = $2 AND s.status = 'confirmed'
       ORDER BY s.id
       ON CONFLICT (send_id, email) DO NOTHING
       RETURNING id`,
      [sendId, stockId],
    );
    return rows.map((r) => r.id);
  }

  /** One delivery per address; the new ids. */
  async queueForRecipients(tx: Tx, sendId: string, recipients: string[]): Promise<string[]> {
    if (!recipients.length) return [];
    const rows: Array<{ id: string }> = await tx.query(
      `INSERT INTO email_marketing.deliveries (send_id, email)
       SELECT $1, unnest($2::text[]) ON CONFLICT (send_id, email) DO NOTHING RETURNING id`,
      [sendId, recipients],
    );
    return rows.map((r) => r.id);
  }

  /**
   * Claims those of `ids` that are due (queued and not before now, or claimed by a sender whose lease ran
   * out) for `instance`, with a lease of `leaseMs`, counting the attempt.
   */
  claim(ids: string[], leaseMs: number, instance: string): Promise<ClaimedDelivery[]> {
    return this.dataSource.query(
      `WITH claimed AS (
         UPDATE email_marketing.deliveries
         SET status = 'sending', attempts = attempts + 1, claimed_by = $3,
             lease_until = now() + make_interval(secs => $2::float8 / 1000)
         WHERE id = ANY($1::uuid[])
           AND ((status = 'queued' AND not_before <= now()) OR (status = 'sending' AND lease_until < now()))
         RETURNING id, send_id, email, attempts, subscriber_id
       )
       SELECT c.id, c.send_id, c.email, c.attempts, s.id AS subscriber_id, s.status AS subscriber_status, x.kind
       FROM claimed c
       JOIN email_marketing.sends x ON x.id = c.send_id
       LEFT JOIN email_marketing.subscribers s ON s.id = c.subscriber_id`,
      [ids, leaseMs, instance],
    );
  }

  async skip(id: string, reason: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE email_marketing.deliveries SET status = 'skipped', lease_until = NULL, last_error = $2 WHERE id = $1`,
      [id, reason],
    );
  }

  async fail(id: string, error: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE email_marketing.deliveries SET status = 'failed', lease_until = NULL, last_error = $2 WHERE id = $1`,
      [id, error],
    );
  }

  /** Queued again, not before `delayMs` from now. */
  async retryLater(id: string, error: string, delayMs: number): Promise<void> {
    await this.dataSource.query(
      `UPDATE email_marketing.deliveries
       SET status = 'queued', lease_until = NULL, last_error = $2,
           not_before = now() + make_interval(secs => $3::float8 / 1000)
       WHERE id = $1`,
      [id, error, delayMs],
    );
  }

  /** Marks accepted mails `sent` in one statement. */
  async markSent(marks: ReadonlyArray<{ id: string; messageId: string }>): Promise<void> {
    await this.dataSource.query(
      `UPDATE email_marketing.deliveries d
       SET status = 'sent', accepted_at = now(), message_id = m.message_id, lease_until = NULL, last_error = NULL
       FROM unnest($1::uuid[], $2::text[]) AS m(id, message_id)
       WHERE d.id = m.id`,
      [marks.map((m) => m.id), marks.map((m) => m.messageId)],
    );
  }

  /**
   * Takes up to 5,000 of an announcement send's accepted, unreported deliveries (oldest acceptance first,
   * rows another reporter holds skipped) and marks them reported in `tx`.
   */
  async takeUnreported(tx: Tx, sendId: string): Promise<AcceptedDelivery[]> {
    const rows: AcceptedDelivery[] = await tx.query(
      `SELECT d.id, d.email, d.accepted_at FROM email_marketing.deliveries d
       JOIN email_marketing.sends x ON x.id = d.send_id AND x.kind = 'announcement'
       WHERE d.send_id = $1 AND d.status = 'sent' AND NOT d.reported
       ORDER BY d.accepted_at LIMIT 5000 FOR UPDATE OF d SKIP LOCKED`,
      [sendId],
    );
    if (rows.length)
      await tx.query(`UPDATE email_marketing.deliveries SET reported = true WHERE id = ANY($1::uuid[])`, [
        rows.map((r) => r.id),
      ]);
    return rows;
  }

  /** Announcement sends with deliveries accepted over 2 s ago and not yet reported. */
  async sendsWithUnreported(): Promise<string[]> {
    const rows: Array<{ send_id: string }> = await this.dataSource.query(
      `SELECT DISTINCT d.send_id FROM email_marketing.deliveries d
       JOIN email_marketing.sends x ON x.id = d.send_id AND x.kind = 'announcement'
       WHERE d.status = 'sent' AND NOT d.reported AND d.accepted_at < now() - interval '2 seconds'`,
    );
    return rows.map((r) => r.send_id);
  }

  /**
   * Takes (at most `limit`, skipping locked rows) the deliveries that need a new batch message: those due
   * for a retry, first attempts whose message was not taken for `orphanAfterMs`, and claims whose lease ran
   * out; stamps them queued now.
   */
  requeueDue(
    tx: Tx,
    orphanAfterMs: number,
    limit: number,
  ): Promise<Array<{ id: string; send_id: string; stock_id: string | null }>> {
    return tx.query(
      `WITH changed AS (UPDATE email_marketing.deliveries d SET queued_at = now()
       FROM email_marketing.sends x
       WHERE x.id = d.send_id AND d.id IN (
         SELECT id FROM email_marketing.deliveries
         WHERE (status = 'queued' AND not_before <= now()
                -- a retry (attempted before) has no batch message waiting; a first attempt has one
                -- unless it was lost, which only time tells
                AND (attempts > 0 OR queued_at < now() - make_interval(secs => $1::float8 / 1000)))
            OR (status = 'sending' AND lease_until < now()
                AND queued_at < now() - make_interval(secs => $1::float8 / 1000))
         LIMIT $2 FOR UPDATE SKIP LOCKED)
       RETURNING d.id, d.send_id, x.stock_id) SELECT * FROM changed`,
      [orphanAfterMs, limit],
    );
  }
}
