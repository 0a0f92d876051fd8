import { Tx } from '@irp/platform';
import { Injectable } from '@nestjs/common';
import type { SuppressionReason } from '@irp/proto';
import type { MailEventKind, MailEventSource } from './bounce-rules';

/** What a report is about once its delivery (or subscriber) is known. */
export interface MailEvent {
  kind: MailEventKind;
  source: MailEventSource;
  detail: string;
}

/** Whom an event is recorded against: a delivery of the portal's, or a subscriber an unsubscribe link names. */
export type EventSubject = { deliveryId: string } | { subscriberId: string };

/**
 * Mail events (bounces, complaints) and suppressed addresses (issue 36): the only place that queries their
 * tables. Addresses are kept lower-cased: a suppression holds for the address in any case, for every stock.
 */
@Injectable()
export class SuppressionsRepository {
  /**
   * Records an event about `subject` (its address and stock read from the delivery and its send, or from the
   * subscriber); the address it is about, or undefined when this delivery's event of this kind was recorded
   * before (or the subject is gone).
   */
  async record(tx: Tx, subject: EventSubject, event: MailEvent): Promise<string | undefined> {
    const rows: Array<{ email: string }> =
      'deliveryId' in subject
        ? await tx.query(
            `INSERT INTO email_marketing.mail_events (delivery_id, stock_id, email, kind, source, detail)
             SELECT d.id, s.stock_id, lower(d.email), $2, $3, $4
             FROM email_marketing.deliveries d JOIN email_marketing.sends s ON s.id = d.send_id
             WHERE d.id = $1
             ON CONFLICT (delivery_id, kind) WHERE delivery_id IS NOT NULL DO NOTHING
             RETURNING email`,
            [subject.deliveryId, event.kind, event.source, event.detail],
          )
        : await tx.query(
            `INSERT INTO email_marketing.mail_events (stock_id, email, kind, source, detail)
             SELECT stock_id, lower(email), $2, $3, $4 FROM email_marketing.subscribers WHERE id = $1
             RETURNING email`,
            [subject.subscriberId, event.kind, event.source, event.detail],
          );
    return rows[0]?.email;
  }

  /** The soft bounces of distinct mails to `email` within the last `windowDays` days. */
  async softBounces(tx: Tx, email: string, windowDays: number): Promise<number> {
    const [{ n }]: Array<{ n: number }> = await tx.query(
      `SELECT count(DISTINCT coalesce(delivery_id::text, id::text))::int AS n FROM email_marketing.mail_events
       WHERE email = $1 AND kind = 'soft-bounce' AND occurred_at > now() - make_interval(days => $2)`,
      [email, windowDays],
    );
    return n;
  }

  /** Suppresses `email` for every stock; an address already suppressed keeps its first reason. */
  async suppress(tx: Tx, email: string, reason: SuppressionReason, detail: string): Promise<boolean> {
    const rows: unknown[] = await tx.query(
      `INSERT INTO email_marketing.suppressions (email, reason, detail) VALUES (lower($1), $2, $3)
       ON CONFLICT (email) DO NOTHING RETURNING email`,
      [email, reason, detail],
    );
    return rows.length > 0;
  }
}
