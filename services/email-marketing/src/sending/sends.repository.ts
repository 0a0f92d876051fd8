import { Tx } from '@irp/platform';
import type { AnnouncementSendRequestedEvent } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { SendChannel, sendRequestKey } from './delivery-rules';
import type { DeliveryEntity } from './delivery.entity';
import type { SendMessage } from './send-message';
import type { SendEntity } from './send.entity';

/** A fixed mail's send (confirmation, notification, error …); its status `done` when there is no one to mail. */
export type NewMailSend = Pick<SendEntity, 'requestKey' | 'kind' | 'stockId' | 'sendGuid' | 'message'> & {
  status: 'sending' | 'done';
};

/**
 * What a send's first accepted delivery records, and what its report carries: an announcement send's stock and
 * sendGuid, and the alert latency only on the report of the first acceptance (null after, or for an old
 * announcement).
 */
export type SendReported = {
  stockId: NonNullable<SendEntity['stockId']>;
  sendGuid: NonNullable<SendEntity['sendGuid']>;
} & Pick<SendEntity, 'alertLatencyMs'>;

/**
 * One entry of an announcement's send history: a reported delivery (its address, when the server accepted it)
 * or a campaign that went out (its audience, when the provider took it), with the alert latency of the
 * announcement's earliest-accepted send that has one.
 */
export type SendHistoryEntry = Pick<DeliveryEntity, 'email'> &
  Pick<SendEntity, 'alertLatencyMs'> & {
    sendGuid: NonNullable<SendEntity['sendGuid']>;
    acceptedAt: NonNullable<DeliveryEntity['acceptedAt']>;
  };

/**
 * Sends (one per request and channel: the idempotency of a send request); the only place that queries
 * their table. A send's deliveries are DeliveriesRepository's.
 */
@Injectable()
export class SendsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * The send of one channel of a send request, keyed by the request (sendRequestKey): the new send's id,
   * or undefined when it was stored before (a redelivered request).
   */
  async insertAnnouncement(
    event: AnnouncementSendRequestedEvent,
    channel: SendChannel,
    message: SendMessage,
    tx?: Tx,
  ): Promise<string | undefined> {
    // By email it is expanded in two steps (docs/adr/0019): `expanded` once the rest is written.
    const [row]: Array<Pick<SendEntity, 'id'>> = await (tx ?? this.dataSource).query(
      `INSERT INTO email_marketing.sends (request_key, kind, channel, stock_id, send_guid, auto, status, message,
         released_at, requested_at, price_sensitive, expanded)
       VALUES ($1, 'announcement', $2, $3, $4, $5, 'sending', $6, $7, $8, $9, $2 <> 'email')
       ON CONFLICT (request_key) DO NOTHING RETURNING id`,
      [
        sendRequestKey(event.requestId, channel),
        channel,
        event.stockId,
        event.announcement.sendGuid,
        event.auto,
        JSON.stringify(message),
        event.announcement.date,
        event.requestedAt,
        event.announcement.priceSensitive,
      ],
    );
    return row?.id;
  }

  /** The new send's id, or undefined when its request key was stored before. */
  async insertMail(tx: Tx, send: NewMailSend): Promise<string | undefined> {
    const [row]: Array<Pick<SendEntity, 'id'>> = await tx.query(
      `INSERT INTO email_marketing.sends (request_key, kind, channel, stock_id, send_guid, status, message)
       VALUES ($1, $2, 'email', $3, $4, $5, $6)
       ON CONFLICT (request_key) DO NOTHING RETURNING id`,
      [send.requestKey, send.kind, send.stockId, send.sendGuid, send.status, JSON.stringify(send.message)],
    );
    return row?.id;
  }

  /**
   * Marks a send's deliveries all written; false when they were already (a redelivered expansion). Its row
   * stays locked until `tx` ends, so two expansions of one send never write at once.
   */
  async markExpanded(tx: Tx, sendId: string): Promise<boolean> {
    const rows: Array<Pick<SendEntity, 'id'>> = await tx.query(
      `UPDATE email_marketing.sends SET expanded = true WHERE id = $1 AND NOT expanded RETURNING id`,
      [sendId],
    );
    return rows.length > 0;
  }

  async markDone(tx: Tx, sendId: string): Promise<void> {
    await tx.query(`UPDATE email_marketing.sends SET status = 'done' WHERE id = $1`, [sendId]);
  }

  async markFailed(sendId: string, error: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE email_marketing.sends SET status = 'failed', error = $2 WHERE id = $1`,
      [sendId, error],
    );
  }

  /** A campaign the provider accepted: done, with its id, preview and who it reached (`audience`). */
  async markCampaignSent(
    tx: Tx,
    sendId: string,
    campaign: { campaignId: string; previewUrl: string | null; audience: string },
  ): Promise<void> {
    await tx.query(
      `UPDATE email_marketing.sends SET status = 'done', campaign_id = $2, preview_url = $3, audience = $4,
         first_accepted_at = now()
       WHERE id = $1`,
      [sendId, campaign.campaignId, campaign.previewUrl, campaign.audience],
    );
  }

  /**
   * The send history of a stock's announcements (of `sendGuids`, else all), in one statement so the entries and
   * the latency are of one moment: each reported delivery of their sends to subscribers and each campaign that
   * went out, by announcement and oldest first. The latency is the earliest-accepted send's that has one: a
   * later send of the announcement never replaces the first's.
   */
  history(stockId: string, sendGuids: readonly string[] | null): Promise<SendHistoryEntry[]> {
    return this.dataSource.query(
      `WITH chosen AS (
         SELECT id, send_guid, channel, status, first_accepted_at, alert_latency_ms, audience
         FROM email_marketing.sends
         WHERE stock_id = $1 AND kind = 'announcement' AND ($2::uuid[] IS NULL OR send_guid = ANY($2::uuid[]))),
       latency AS (
         SELECT DISTINCT ON (send_guid) send_guid, alert_latency_ms FROM chosen
         WHERE alert_latency_ms IS NOT NULL ORDER BY send_guid, first_accepted_at, id),
       entries AS (
         SELECT c.send_guid, d.accepted_at, d.email FROM chosen c
         JOIN email_marketing.deliveries d ON d.send_id = c.id AND d.reported
         WHERE c.channel = 'email'
         UNION ALL
         SELECT send_guid, first_accepted_at, audience FROM chosen
         WHERE channel = 'email-marketing' AND status = 'done' AND audience IS NOT NULL)
       SELECT e.send_guid AS "sendGuid", e.accepted_at AS "acceptedAt", e.email,
         l.alert_latency_ms AS "alertLatencyMs"
       FROM entries e LEFT JOIN latency l ON l.send_guid = e.send_guid
       ORDER BY e.send_guid, e.accepted_at, e.email`,
      [stockId, sendGuids],
    );
  }

  /** What a send mails, or null for a send this database does not have. */
  async message(sendId: string): Promise<SendMessage | null> {
    const [row]: Array<Pick<SendEntity, 'message'>> = await this.dataSource.query(
      `SELECT message FROM email_marketing.sends WHERE id = $1`,
      [sendId],
    );
    return row?.message ?? null;
  }

  /**
   * Records a send's first acceptance (kept once) and, then only, its alert latency: from the
   * announcement's release to `acceptedAt`, unless released `latencyMaxDays` or more before.
   */
  async recordAcceptance(
    tx: Tx,
    sendId: string,
    acceptedAt: Date,
    latencyMaxDays: number,
  ): Promise<SendReported> {
    const [send]: SendReported[] = await tx.query(
      `WITH changed AS (UPDATE email_marketing.sends
       SET first_accepted_at = COALESCE(first_accepted_at, $2),
           alert_latency_ms = COALESCE(alert_latency_ms,
             CASE WHEN $2::timestamptz - released_at < make_interval(days => $3)
                  THEN GREATEST(0, (extract(epoch FROM ($2::timestamptz - released_at)) * 1000)::int) END)
       WHERE id = $1
       RETURNING stock_id AS "stockId", send_guid AS "sendGuid",
         CASE WHEN first_accepted_at = $2 THEN alert_latency_ms END AS "alertLatencyMs") SELECT * FROM changed`,
      [sendId, acceptedAt, latencyMaxDays],
    );
    return send;
  }

  /**
   * Sends by email still `sending`, expanded, with no delivery left queued or in flight become `done`; how many. A
   * campaign has no deliveries: it is done or failed by the provider's answer (markCampaignSent, markFailed),
   * never here, so `done` always means the provider took it.
   */
  async closeFinished(): Promise<number> {
    const done: Array<Pick<SendEntity, 'id'>> = await this.dataSource.query(
      `WITH changed AS (UPDATE email_marketing.sends x SET status = 'done'
       WHERE x.status = 'sending' AND x.channel = 'email' AND x.expanded AND NOT EXISTS (
         SELECT 1 FROM email_marketing.deliveries d WHERE d.send_id = x.id AND d.status IN ('queued', 'sending'))
       RETURNING x.id) SELECT * FROM changed`,
    );
    return done.length;
  }
}
