import { Tx } from '@irp/platform';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { SubscriberChoices, SuppressionReason } from '@irp/proto';
import type { SubscriberEntity } from './subscriber.entity';
import type { SubscribeAttempts } from './subscription-rules';
import type { UnsubscribeProof } from './unsubscribe-tokens';

/** A subscriber as the service reads it: never its token hashes. */
export type SubscriberRow = Pick<
  SubscriberEntity,
  | 'id'
  | 'stockId'
  | 'email'
  | 'status'
  | 'subscribedAt'
  | 'consentIp'
  | 'consentUserAgent'
  | 'confirmedAt'
  | 'unsubscribedAt'
  | 'preference'
  | 'pausedUntil'
>;

/** A subscriber as the staff list reads it: with why its address is suppressed, if it is. */
export type ListedSubscriberRow = SubscriberRow & {
  suppressedReason: SuppressionReason | null;
  suppressedSince: Date | null;
  suppressedDetail: string | null;
};

/** A subscription request as stored: pending, with its consent evidence and tokens. */
export type PendingSubscriber = Pick<
  SubscriberEntity,
  'stockId' | 'email' | 'consentIp' | 'consentUserAgent' | 'preference'
> & {
  confirmTokenHash: NonNullable<SubscriberEntity['confirmTokenHash']>;
  confirmTokenExpiresAt: NonNullable<SubscriberEntity['confirmTokenExpiresAt']>;
};

/** A stock's subscribers newest first; one subscribed at the same moment as another, by address. */
const NEWEST_FIRST = 'subscribed_at DESC, email';

/** The columns of a SubscriberRow, each as its property. */
const COLUMNS = `id, stock_id AS "stockId", email, status, subscribed_at AS "subscribedAt",
  consent_ip AS "consentIp", consent_user_agent AS "consentUserAgent", confirmed_at AS "confirmedAt",
  unsubscribed_at AS "unsubscribedAt", preference, paused_until AS "pausedUntil"`;

/** A list read (`rows`: subscribers with COLUMNS) with each one's suppression, in the list's order. */
const withSuppression = (rows: string) =>
  `SELECT r.*, x.reason AS "suppressedReason", x.since AS "suppressedSince", x.detail AS "suppressedDetail"
   FROM (${rows}) r LEFT JOIN email_marketing.suppressions x ON x.email = lower(r.email)
   ORDER BY r."subscribedAt" DESC, r.email`;

/** A subscriber by the id a current token carries, or by the hash a token of the earlier scheme is kept as. */
const proofCondition = `($1::uuid IS NOT NULL AND id = $1::uuid) OR ($1::uuid IS NULL AND legacy_unsubscribe_token_hash = $2)`;
const proofParams = (proof: UnsubscribeProof) =>
  'subscriberId' in proof ? [proof.subscriberId, null] : [null, proof.legacyHash];

/** Subscribers and subscribe attempts; the only place that queries their tables. */
@Injectable()
export class SubscribersRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Attempts within the last `windowMs` by this address (any case) and from this IP. */
  async recentAttempts(tx: Tx, email: string, ip: string, windowMs: number): Promise<SubscribeAttempts> {
    const [counts]: SubscribeAttempts[] = await tx.query(
      `SELECT count(*) FILTER (WHERE email = lower($1))::int AS "byEmail",
            count(*) FILTER (WHERE ip = $2)::int AS "byIp"
     FROM email_marketing.subscribe_attempts
     WHERE at > now() - make_interval(secs => $3::float8 / 1000) AND (email = lower($1) OR ip = $2)`,
      [email, ip, windowMs],
    );
    return counts;
  }

  async recordAttempt(tx: Tx, email: string, ip: string): Promise<void> {
    await tx.query(`INSERT INTO email_marketing.subscribe_attempts (email, ip) VALUES (lower($1), $2)`, [
      email,
      ip,
    ]);
  }

  /**
   * A new address, or one that unsubscribed or never confirmed: pending again with a fresh token and fresh
   * consent evidence. A confirmed subscriber stays as it is: then there is no row back (undefined).
   */
  async upsertPending(tx: Tx, s: PendingSubscriber): Promise<SubscriberRow | undefined> {
    const rows: SubscriberRow[] = await tx.query(
      `INSERT INTO email_marketing.subscribers (stock_id, email, status, consent_ip, consent_user_agent,
       confirm_token_hash, confirm_token_expires_at, preference)
     VALUES ($1, $2, 'pending', $3, $4, $5, $6, $7)
     ON CONFLICT (stock_id, lower(email)) DO UPDATE SET
       status = 'pending', subscribed_at = now(), consent_ip = EXCLUDED.consent_ip,
       consent_user_agent = EXCLUDED.consent_user_agent, confirmed_at = NULL, unsubscribed_at = NULL,
       confirm_token_hash = EXCLUDED.confirm_token_hash, confirm_token_expires_at = EXCLUDED.confirm_token_expires_at,
       preference = EXCLUDED.preference, paused_until = NULL
     WHERE email_marketing.subscribers.status <> 'confirmed'
     RETURNING ${COLUMNS}`,
      [
        s.stockId,
        s.email,
        s.consentIp,
        s.consentUserAgent,
        s.confirmTokenHash,
        s.confirmTokenExpiresAt,
        s.preference,
      ],
    );
    return rows[0];
  }

  /**
   * Confirms the pending subscriber of an unexpired confirmation token, spending the token. The address's
   * suppression, if any, is lifted: its owner just read a mail at it and asked for the announcements again.
   */
  async confirm(confirmTokenHash: string): Promise<SubscriberRow | undefined> {
    const rows: SubscriberRow[] = await this.dataSource.query(
      `WITH changed AS (UPDATE email_marketing.subscribers
       SET status = 'confirmed', confirmed_at = now(), confirm_token_hash = NULL, confirm_token_expires_at = NULL
       WHERE confirm_token_hash = $1 AND confirm_token_expires_at > now() AND status = 'pending'
       RETURNING ${COLUMNS}),
       lifted AS (DELETE FROM email_marketing.suppressions x USING changed c WHERE x.email = lower(c.email))
       SELECT * FROM changed`,
      [confirmTokenHash],
    );
    return rows[0];
  }

  /** The subscriber an unsubscribe link proves (subscribers/unsubscribe-tokens.ts). */
  async byUnsubscribeProof(proof: UnsubscribeProof): Promise<SubscriberRow | undefined> {
    const rows: SubscriberRow[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM email_marketing.subscribers WHERE ${proofCondition}`,
      proofParams(proof),
    );
    return rows[0];
  }

  /** Unsubscribes (idempotent: the first unsubscribe time is kept) and spends any confirmation token. */
  async unsubscribe(proof: UnsubscribeProof): Promise<SubscriberRow | undefined> {
    const rows: SubscriberRow[] = await this.dataSource.query(
      `WITH changed AS (UPDATE email_marketing.subscribers
       SET status = 'unsubscribed', unsubscribed_at = COALESCE(unsubscribed_at, now()),
           confirm_token_hash = NULL, confirm_token_expires_at = NULL
       WHERE ${proofCondition}
       RETURNING ${COLUMNS}) SELECT * FROM changed`,
      proofParams(proof),
    );
    return rows[0];
  }

  /**
   * Saves what the subscriber an unsubscribe link proves chose to be mailed, and its pause: `pausedUntil` a
   * time, null to end a pause, undefined to leave it. Not for an unsubscribed one (no row back), who
   * subscribes again on the company's site.
   */
  async savePreferences(
    proof: UnsubscribeProof,
    preference: SubscriberRow['preference'],
    pausedUntil: Date | null | undefined,
  ): Promise<SubscriberRow | undefined> {
    const rows: SubscriberRow[] = await this.dataSource.query(
      `WITH changed AS (UPDATE email_marketing.subscribers
       SET preference = $3, paused_until = CASE WHEN $4 THEN $5::timestamptz ELSE paused_until END
       WHERE (${proofCondition}) AND status <> 'unsubscribed'
       RETURNING ${COLUMNS}) SELECT * FROM changed`,
      [...proofParams(proof), preference, pausedUntil !== undefined, pausedUntil ?? null],
    );
    return rows[0];
  }

  /** A stock's subscribers, newest first. */
  ofStock(stockId: string): Promise<ListedSubscriberRow[]> {
    return this.dataSource.query(
      withSuppression(`SELECT ${COLUMNS} FROM email_marketing.subscribers WHERE stock_id = $1`),
      [stockId],
    );
  }

  /**
   * A page of a stock's subscribers in ofStock's order: at most `limit`, those after the subscriber `after`
   * when given (a keyset read along subscribers_stock_newest). Null when `after` is not a subscriber of the stock.
   */
  async pageOfStock(
    stockId: string,
    { limit, after }: { limit: number; after?: string },
  ): Promise<ListedSubscriberRow[] | null> {
    if (!after)
      return this.dataSource.query(
        withSuppression(
          `SELECT ${COLUMNS} FROM email_marketing.subscribers WHERE stock_id = $1 ORDER BY ${NEWEST_FIRST} LIMIT $2`,
        ),
        [stockId, limit],
      );
    const [cursor] = await this.dataSource.query(
      `SELECT subscribed_at, email FROM email_marketing.subscribers WHERE id = $1 AND stock_id = $2`,
      [after, stockId],
    );
    if (!cursor) return null;
    return this.dataSource.query(
      withSuppression(`SELECT ${COLUMNS} FROM email_marketing.subscribers
        WHERE stock_id = $1 AND (subscribed_at < $2 OR (subscribed_at = $2 AND email > $3))
        ORDER BY ${NEWEST_FIRST} LIMIT $4`),
      [stockId, cursor.subscribed_at, cursor.email, limit],
    );
  }

  /** How many subscribers of the stock are in each status. */
  /** Of the stock's confirmed subscribers: how many chose each preference, are paused now, are suppressed. */
  async choicesOf(stockId: string): Promise<SubscriberChoices> {
    const [choices]: SubscriberChoices[] = await this.dataSource.query(
      `SELECT count(*) FILTER (WHERE s.preference = 'all')::int AS "all",
              count(*) FILTER (WHERE s.preference = 'price-sensitive')::int AS "price-sensitive",
              count(*) FILTER (WHERE s.paused_until > now())::int AS paused,
              count(x.email)::int AS suppressed
       FROM email_marketing.subscribers s
       LEFT JOIN email_marketing.suppressions x ON x.email = lower(s.email)
       WHERE s.stock_id = $1 AND s.status = 'confirmed'`,
      [stockId],
    );
    return choices;
  }

  async countsOf(stockId: string): Promise<{ status: SubscriberRow['status']; n: number }[]> {
    return this.dataSource.query(
      `SELECT status, count(*)::int AS n FROM email_marketing.subscribers WHERE stock_id = $1 GROUP BY status`,
      [stockId],
    );
  }
}
