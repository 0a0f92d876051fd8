import { createLogger, Outbox, SERVICE_CONFIG, SingletonJobs, UnitOfWork } from '@irp/platform';
import { Topics } from '@irp/proto';
import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import type { EmailMarketingConfig } from '../config';
import { DeliveriesRepository } from './deliveries.repository';
import { batchKey, DELIVERY_BATCH } from './delivery-rules';
import { DeliveryService } from './delivery.service';
import { chunks } from './send-message';
import { SendsRepository } from './sends.repository';

const log = createLogger('sweeper');

const SWEEP_LIMIT = 10_000;

/**
 * The senders' housekeeping (one instance at a time): deliveries due for a retry, and claims whose lease
 * ran out (their sender died mid-send), get a new batch message; accepted deliveries not yet reported are
 * reported; sends with nothing left open are done.
 */
@Injectable()
export class DeliverySweeper implements OnModuleInit {
  constructor(
    private readonly jobs: SingletonJobs,
    private readonly sends: SendsRepository,
    private readonly deliveryRows: DeliveriesRepository,
    private readonly units: UnitOfWork,
    private readonly outbox: Outbox,
    private readonly deliveries: DeliveryService,
    @Inject(SERVICE_CONFIG) private readonly config: EmailMarketingConfig,
  ) {}

  onModuleInit() {
    this.jobs.register({
      name: 'email-marketing:delivery-sweeper',
      intervalMs: this.config.SWEEP_INTERVAL_MS,
      run: () => this.sweep().then(() => undefined),
    });
  }

  async sweep(): Promise<{ requeued: number; reported: number; done: number }> {
    const requeued = await this.requeue();
    let reported = 0;
    for (const sendId of await this.deliveryRows.sendsWithUnreported())
      reported += await this.deliveries.report(sendId);
    const done = await this.sends.closeFinished();
    if (requeued || reported) log.info({ requeued, reported, done }, 'deliveries swept');
    return { requeued, reported, done };
  }

  private async requeue(): Promise<number> {
    return this.units.run(async (tx) => {
      const rows = await this.deliveryRows.requeueDue(tx, this.config.DELIVERY_ORPHAN_AFTER_MS, SWEEP_LIMIT);
      const bySend = new Map<string, { stockId: string | null; ids: string[] }>();
      for (const r of rows) {
        const entry = bySend.get(r.send_id) ?? { stockId: r.stock_id, ids: [] };
        entry.ids.push(r.id);
        bySend.set(r.send_id, entry);
      }
      for (const [sendId, { stockId, ids }] of bySend) {
        for (const [i, deliveryIds] of chunks(ids, DELIVERY_BATCH).entries()) {
          await this.outbox.add(tx, Topics.EmailDeliveriesQueued, batchKey(sendId, i, true), {
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
