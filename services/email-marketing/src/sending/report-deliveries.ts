import { Outbox, UnitOfWork } from '@irp/platform';
import { Topics } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { DeliveriesRepository } from './deliveries.repository';
import { SendsRepository } from './sends.repository';

/**
 * Alert latency is recorded for news: an announcement mailed more than this many days after its release
 * (an old one sent by hand) has none.
 */
export const ALERT_LATENCY_MAX_DAYS = 7;

/**
 * Reports a send's accepted, unreported deliveries as one `announcement.delivered`, in the transaction that
 * marks them reported and records the send's alert latency: from that commit they are in the announcement's
 * send history (`email-marketing.send-history`), `sent` and the latency with them. The first report carries
 * the alert latency. Called after each chunk of a batch (DeliverBatch) and by the sweep for what a sender left
 * unreported.
 */
@Injectable()
export class ReportDeliveries {
  constructor(
    private readonly deliveries: DeliveriesRepository,
    private readonly sends: SendsRepository,
    private readonly units: UnitOfWork,
    private readonly outbox: Outbox,
  ) {}

  /** How many deliveries were reported. */
  async run(sendId: string): Promise<number> {
    return this.units.run(async (m) => {
      const rows = await this.deliveries.takeUnreported(m, sendId);
      if (!rows.length) return 0;
      const send = await this.sends.recordAcceptance(m, sendId, rows[0].acceptedAt, ALERT_LATENCY_MAX_DAYS);
      await this.outbox.add(m, Topics.AnnouncementDelivered, send.stockId, {
        stockId: send.stockId,
        sendGuid: send.sendGuid,
        timestamp: rows[rows.length - 1].acceptedAt.toISOString(),
        emailAddresses: rows.map((r) => r.email),
        ...(send.alertLatencyMs !== null ? { alertLatencyMs: send.alertLatencyMs } : {}),
      });
      return rows.length;
    });
  }
}
