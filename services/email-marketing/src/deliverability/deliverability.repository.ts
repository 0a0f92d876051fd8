import type { DeliverabilityDay } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { SendEntity } from '../sending/send.entity';

/** One announcement's alert latency as the sends table has it (the query keeps only sends that have one). */
export type AlertLatencyRow = Pick<SendEntity, 'sendGuid' | 'firstAcceptedAt' | 'alertLatencyMs'> & {
  headline: string | null;
};

/**
 * The deliverability panel's reads (issue 36) over sends, deliveries, mail_events and subscribers: the only
 * place that queries them for it.
 */
@Injectable()
export class DeliverabilityRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Per Sydney day of the stock's last `days` (today last): the mails of its announcement sends made that day
   * given to SMTP and accepted, the bounces and complaints reported that day, the subscribers who left that day.
   */
  perDay(stockId: string, days: number): Promise<DeliverabilityDay[]> {
    return this.dataSource.query(
      `WITH span AS (
         SELECT d::date AS day FROM generate_series(
           (now() AT TIME ZONE 'Australia/Sydney')::date - ($2::int - 1),
           (now() AT TIME ZONE 'Australia/Sydney')::date, interval '1 day') d),
       since AS (SELECT (min(day)::timestamp AT TIME ZONE 'Australia/Sydney') AS at FROM span),
       mails AS (
         SELECT (x.created_at AT TIME ZONE 'Australia/Sydney')::date AS day,
                count(*) FILTER (WHERE d.status IN ('sent', 'failed'))::int AS sent,
                count(*) FILTER (WHERE d.status = 'sent')::int AS accepted
         FROM email_marketing.sends x JOIN email_marketing.deliveries d ON d.send_id = x.id
         WHERE x.stock_id = $1 AND x.kind = 'announcement' AND x.created_at >= (SELECT at FROM since)
         GROUP BY 1),
       reports AS (
         SELECT (occurred_at AT TIME ZONE 'Australia/Sydney')::date AS day,
                count(*) FILTER (WHERE kind <> 'complaint')::int AS bounced,
                count(*) FILTER (WHERE kind = 'complaint')::int AS complained
         FROM email_marketing.mail_events
         WHERE stock_id = $1 AND occurred_at >= (SELECT at FROM since)
         GROUP BY 1),
       leavers AS (
         SELECT (unsubscribed_at AT TIME ZONE 'Australia/Sydney')::date AS day, count(*)::int AS unsubscribed
         FROM email_marketing.subscribers
         WHERE stock_id = $1 AND unsubscribed_at >= (SELECT at FROM since)
         GROUP BY 1)
       SELECT to_char(s.day, 'YYYY-MM-DD') AS day,
              coalesce(m.sent, 0) AS sent, coalesce(m.accepted, 0) AS accepted,
              coalesce(r.bounced, 0) AS bounced, coalesce(r.complained, 0) AS complained,
              coalesce(l.unsubscribed, 0) AS unsubscribed
       FROM span s
       LEFT JOIN mails m ON m.day = s.day
       LEFT JOIN reports r ON r.day = s.day
       LEFT JOIN leavers l ON l.day = s.day
       ORDER BY s.day`,
      [stockId, days],
    );
  }

  /** The stock's latest `limit` announcements with an alert latency, newest first. */
  latestAlerts(stockId: string, limit: number): Promise<AlertLatencyRow[]> {
    return this.dataSource.query(
      `SELECT send_guid AS "sendGuid", message->'announcement'->>'headline' AS headline,
                first_accepted_at AS "firstAcceptedAt", alert_latency_ms AS "alertLatencyMs"
         FROM email_marketing.sends
         WHERE stock_id = $1 AND kind = 'announcement' AND alert_latency_ms IS NOT NULL
           AND first_accepted_at IS NOT NULL
         ORDER BY first_accepted_at DESC LIMIT $2`,
      [stockId, limit],
    );
  }
}
