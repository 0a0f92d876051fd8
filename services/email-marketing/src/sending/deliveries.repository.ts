import { Tx } from '@irp/platform';
import { Injectable } from '@nestjs/common';
import type { Client } from 'pg';
import { DataSource } from 'typeorm';
import type { SuppressionReason } from '@irp/proto';
import type { SubscriberEntity } from '../subscribers/subscriber.entity';
import type { DeliveryEntity } from './delivery.entity';
import type { SendEntity } from './send.entity';

/**
 * The first key of every claim owner's advisory lock (the second is the owner number): the two-key form,
 * which never meets the one-key locks of singleton jobs, migrations and the outbox relay.
 */
const CLAIM_OWNER_LOCK = 'email_marketing.deliveries.claimed_owner';

/**
 * A delivery a sender claimed, with what its mail needs: its send's kind, its subscriber as the subscribers
 * table has it now (both null once removed, and for fixed mails), and why its address is suppressed, if it is.
 */
export type ClaimedDelivery = Pick<DeliveryEntity, 'id' | 'sendId' | 'email' | 'attempts' | 'subscriberId'> &
  Pick<SendEntity, 'kind' | 'priceSensitive'> & {
    subscriberStatus: SubscriberEntity['status'] | null;
    suppressed: SuppressionReason | null;
  };

/** An accepted delivery not yet reported in sendHistory. */
export type AcceptedDelivery = Pick<DeliveryEntity, 'id' | 'email'> & {
  acceptedAt: NonNullable<DeliveryEntity['acceptedAt']>;
};

/** A claim its sender gave back unmarked (its mark failed), with the owner number it was claimed under. */
export type UnmarkedClaim = Pick<DeliveryEntity, 'id'> & { owner: ClaimOwnerNumber };

/** The owner number a claim is made under (`claimed_owner`, from the `sender_owners` sequence). */
export type ClaimOwnerNumber = NonNullable<DeliveryEntity['claimedOwner']>;

/** A delivery taken over from a dead owner: queued again, for the taking sender to send. */
export type TakenOverDelivery = Pick<DeliveryEntity, 'id' | 'sendId'>;

/** A delivery due for a new batch message, with its send's stock (the message's) and lane. */
export type DueDelivery = Pick<DeliveryEntity, 'id' | 'sendId'> &
  Pick<SendEntity, 'stockId' | 'priceSensitive'>;

/**
 * Deliveries (one per send and address): queued, claimed under the sending process's owner number before
 * SMTP, marked after; the only place that queries their table.
 */
@Injectable()
export class DeliveriesRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * One delivery per confirmed subscriber of the send's stock who wants it (every announcement, or
   * price-sensitive only and it is one) and is not paused, each address once and none suppressed; the new ids.
   */
  async queueForSubscribers(
    tx: Tx,
    send: { sendId: string; stockId: string; priceSensitive: boolean },
    limit?: number,
  ): Promise<string[]> {
    const rows: Array<Pick<DeliveryEntity, 'id'>> = await tx.query(
      `INSERT INTO email_marketing.deliveries (send_id, subscriber_id, email)
       SELECT $1, s.id, s.email FROM email_marketing.subscribers s
       WHERE s.stock_id = $2 AND s.status = 'confirmed'
         AND (s.preference = 'all' OR $4::boolean)
         AND (s.paused_until IS NULL OR s.paused_until <= now())
         AND NOT EXISTS (SELECT 1 FROM email_marketing.suppressions x WHERE x.email = lower(s.email))
       ORDER BY s.id
       LIMIT $3
       ON CONFLICT (send_id, email) DO NOTHING
       RETURNING id`,
      [send.sendId, send.stockId, limit ?? null, send.priceSensitive],
    );
    return rows.map((r) => r.id);
  }

  /** One delivery per address; the new ids. */
  async queueForRecipients(tx: Tx, sendId: string, recipients: string[]): Promise<string[]> {
    if (!recipients.length) return [];
    const rows: Array<Pick<DeliveryEntity, 'id'>> = await tx.query(
      `INSERT INTO email_marketing.deliveries (send_id, email)
       SELECT $1, unnest($2::text[]) ON CONFLICT (send_id, email) DO NOTHING RETURNING id`,
      [sendId, recipients],
    );
    return rows.map((r) => r.id);
  }

  /**
   * Claims those of `ids` that are due (queued and not before now, or claimed with no owner by a sender of
   * an earlier version whose lease ran out) for `instance` under its `owner` number, counting the attempt.
   * The lease (`leaseMs`) is still written, for a rollback to leases alone; no owned claim ever expires.
   */
  claim(ids: string[], leaseMs: number, instance: string, owner: number): Promise<ClaimedDelivery[]> {
    return this.dataSource.query(
      `WITH claimed AS (
         UPDATE email_marketing.deliveries
         SET status = 'sending', attempts = attempts + 1, claimed_by = $3, claimed_owner = $4,
             lease_until = now() + make_interval(secs => $2::float8 / 1000)
         WHERE id = ANY($1::uuid[])
           AND ((status = 'queued' AND not_before <= now())
             OR (status = 'sending' AND claimed_owner IS NULL AND lease_until < now()))
         RETURNING id, send_id, email, attempts, subscriber_id
       )
       SELECT c.id, c.send_id AS "sendId", c.email, c.attempts, s.id AS "subscriberId",
              s.status AS "subscriberStatus", x.kind, x.price_sensitive AS "priceSensitive",
              sup.reason AS suppressed
       FROM claimed c
       JOIN email_marketing.sends x ON x.id = c.send_id
       LEFT JOIN email_marketing.subscribers s ON s.id = c.subscriber_id
       LEFT JOIN email_marketing.suppressions sup ON sup.email = lower(c.email)`,
      [ids, leaseMs, instance, owner],
    );
  }

  /**
   * Takes a new owner number (unique per process start: `sender_owners`) and locks it for the session of
   * `connection`, the owner's connection of its own (ClaimOwner): the lock lives exactly as long as it does.
   */
  async lockNewOwner(connection: Client): Promise<number> {
    const { rows } = await connection.query<{ owner: ClaimOwnerNumber }>(
      `SELECT nextval('email_marketing.sender_owners')::int AS owner`,
    );
    const owner = rows[0].owner;
    // A number nobody else has: granted at once.
    await connection.query('SELECT pg_advisory_lock(hashtext($1), $2)', [CLAIM_OWNER_LOCK, owner]);
    return owner;
  }

  /**
   * Gives back claims their sender holds no more (their mark failed: the mail may or may not have gone): queued
   * again, now, unless marked or taken over since. Only their owner calls this, for claims it knows are not in
   * flight, so no living sender sends them meanwhile. The sweeper announces them again (a retry has attempts).
   */
  async release(claims: readonly UnmarkedClaim[]): Promise<void> {
    await this.dataSource.query(
      `UPDATE email_marketing.deliveries d
       SET status = 'queued', lease_until = NULL, claimed_owner = NULL, not_before = now()
       FROM unnest($1::uuid[], $2::int[]) AS u(id, owner)
       WHERE d.id = u.id AND d.status = 'sending' AND d.claimed_owner = u.owner`,
      [claims.map((c) => c.id), claims.map((c) => c.owner)],
    );
  }

  /**
   * The owners of claims whose lock is free: their process is gone. Each found is locked in `tx` (a
   * transaction-level lock, released at its end), so the test is the lock itself, not a reading of pg_locks.
   */
  async deadOwners(tx: Tx): Promise<ClaimOwnerNumber[]> {
    const rows: Array<{ owner: ClaimOwnerNumber }> = await tx.query(
      `SELECT owner FROM (
         SELECT DISTINCT claimed_owner AS owner FROM email_marketing.deliveries
         WHERE status = 'sending' AND claimed_owner IS NOT NULL) owners
       WHERE pg_try_advisory_xact_lock(hashtext($1), owner)`,
      [CLAIM_OWNER_LOCK],
    );
    return rows.map((r) => r.owner);
  }

  /** Queues (at most `limit` of) the claims of dead `owners` again, now; the ones taken, by send. */
  takeOver(tx: Tx, owners: readonly number[], limit: number): Promise<TakenOverDelivery[]> {
    return tx.query(
      `WITH taken AS (
         UPDATE email_marketing.deliveries
         SET status = 'queued', lease_until = NULL, claimed_owner = NULL, not_before = now(), queued_at = now()
         WHERE id IN (
           SELECT id FROM email_marketing.deliveries
           WHERE status = 'sending' AND claimed_owner = ANY($1::int[])
           LIMIT $2 FOR UPDATE SKIP LOCKED)
         RETURNING id, send_id AS "sendId")
       SELECT * FROM taken`,
      [owners, limit],
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
      `SELECT d.id, d.email, d.accepted_at AS "acceptedAt" FROM email_marketing.deliveries d
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
    const rows: Array<Pick<DeliveryEntity, 'sendId'>> = await this.dataSource.query(
      `SELECT DISTINCT d.send_id AS "sendId" FROM email_marketing.deliveries d
       JOIN email_marketing.sends x ON x.id = d.send_id AND x.kind = 'announcement'
       WHERE d.status = 'sent' AND NOT d.reported AND d.accepted_at < now() - interval '2 seconds'`,
    );
    return rows.map((r) => r.sendId);
  }

  /**
   * Takes (at most `limit`, skipping locked rows) the deliveries that need a new batch message: those due
   * for a retry (given back or taken over ones among them), first attempts whose message was not taken for
   * `orphanAfterMs`, and owner-less claims (an earlier version's) whose lease ran out; stamps them queued now.
   */
  requeueDue(tx: Tx, orphanAfterMs: number, limit: number): Promise<DueDelivery[]> {
    return tx.query(
      `WITH changed AS (UPDATE email_marketing.deliveries d SET queued_at = now()
       FROM email_marketing.sends x
       WHERE x.id = d.send_id AND d.id IN (
         SELECT id FROM email_marketing.deliveries
         WHERE (status = 'queued' AND not_before <= now()
                -- a retry (attempted before) has no batch message waiting; a first attempt has one
                -- unless it was lost, which only time tells
                AND (attempts > 0 OR queued_at < now() - make_interval(secs => $1::float8 / 1000)))
            OR (status = 'sending' AND claimed_owner IS NULL AND lease_until < now()
                AND queued_at < now() - make_interval(secs => $1::float8 / 1000))
         LIMIT $2 FOR UPDATE SKIP LOCKED)
       RETURNING d.id, d.send_id AS "sendId", x.stock_id AS "stockId", x.price_sensitive AS "priceSensitive")
       SELECT * FROM changed`,
      [orphanAfterMs, limit],
    );
  }
}
