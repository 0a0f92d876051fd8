import type { Deliverability, DeliverabilityDay } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { DeliverabilityRepository } from './deliverability.repository';

/** How many of the latest announcements' alert latencies the panel lists. */
const ALERTS_SHOWN = 20;

type DayCounts = Omit<DeliverabilityDay, 'day'>;
const ZERO: DayCounts = { sent: 0, accepted: 0, bounced: 0, complained: 0, unsubscribed: 0 };

/**
 * A stock's deliverability (issue 36): its mail per Sydney day of its last `days` (DeliverabilityRepository),
 * their totals, complaints per accepted mail (against the large providers' 0.3%) and the latest announcements'
 * alert latencies (recorded with each send's first acceptance).
 */
@Injectable()
export class ReadDeliverability {
  constructor(private readonly deliverability: DeliverabilityRepository) {}

  async run({ stockId, days }: { stockId: string; days: number }): Promise<Deliverability> {
    const rows = await this.deliverability.perDay(stockId, days);
    const totals = rows.reduce<DayCounts>(
      (sum, r) => ({
        sent: sum.sent + r.sent,
        accepted: sum.accepted + r.accepted,
        bounced: sum.bounced + r.bounced,
        complained: sum.complained + r.complained,
        unsubscribed: sum.unsubscribed + r.unsubscribed,
      }),
      ZERO,
    );
    const alerts = await this.deliverability.latestAlerts(stockId, ALERTS_SHOWN);
    return {
      days: rows,
      totals,
      complaintRate: totals.accepted ? totals.complained / totals.accepted : null,
      // latestAlerts reads only sends with a first acceptance and a latency.
      alerts: alerts.map((a) => ({
        sendGuid: a.sendGuid ?? '',
        headline: a.headline ?? '',
        firstAcceptedAt: a.firstAcceptedAt!.toISOString(),
        alertLatencyMs: a.alertLatencyMs!,
      })),
    };
  }
}
