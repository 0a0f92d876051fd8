import { createLogger, Outbox, SERVICE_CONFIG, UnitOfWork } from '@irp/platform';
import { Inject, Injectable } from '@nestjs/common';
import type { EmailMarketingConfig } from '../config';
import { DeliveriesRepository } from './deliveries.repository';
import { batchKey, batchTopicOf, DELIVERY_BATCH, laneOf } from './delivery-rules';
import { ReportDeliveries } from './report-deliveries';
import { chunks } from './send-message';
import { SendsRepository } from './sends.repository';

const log = createLogger('sweeper');

/** Most deliveries given a new batch message in one sweep. */
const SWEEP_LIMIT = 10_000;

/**
 * The sweep, a singleton job every SWEEP_INTERVAL_MS (delivery-jobs.ts): deliveries due for a retry (given
 * back and taken over ones among them), first attempts whose batch message was lost, and an earlier
 * version's owner-less claims whose lease ran out get a new batch message; accepted deliveries not yet
 * reported are reported; sends with nothing left open are done.
 */
@Injectable()
export class SweepDueDeliveries {
  constructor(
    private readonly sends: SendsRepository,
    private readonly deliveries: DeliveriesRepository,
    private readonly units: UnitOfWork,
    private readonly outbox: Outbox,
    private readonly reporting: ReportDeliveries,
    @Inject(SERVICE_CONFIG) private readonly config: EmailMarketingConfig,
  ) {}

  async run(): Promise<{ requeued: number; reported: number; done: number }> {
    const requeued = await this.requeue();
    let reported = 0;
    for (const sendId of await this.deliveries.sendsWithUnreported())
      reported += await this.reporting.run(sendId);
    const done = await this.sends.closeFinished();
    if (requeued || reported) log.info({ requeued, reported, done }, 'deliveries swept');
    return { requeued, reported, done };
  }

  private async requeue(): Promise<number> {
    return this.units.run(async (tx) => {
      const rows = await this.deliveries.requeueDue(tx, this.config.DELIVERY_ORPHAN_AFTER_MS, SWEEP_LIMIT);
      const bySend = new Map<string, { stockId: string | null; priceSensitive: boolean; ids: string[] }>();
      for (const r of rows) {
        const entry = bySend.get(r.sendId) ?? {
          stockId: r.stockId,
          priceSensitive: r.priceSensitive,
          ids: [],
        };
        entry.ids.push(r.id);
        bySend.set(r.sendId, entry);
      }
      for (const [sendId, { stockId, priceSensitive, ids }] of bySend) {
        for (const [i, deliveryIds] of chunks(ids, DELIVERY_BATCH).entries()) {
          await this.outbox.add(tx, batchTopicOf(laneOf({ priceSensitive })), batchKey(sendId, i, true), {
            sendId,
            stockId,
            deliveryIds,
          });
        }
      }
      return rows.length;
    });
  }
}
