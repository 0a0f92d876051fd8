import { createLogger, Outbox, SERVICE_CONFIG, SingletonJobs, UnitOfWork } from '@irp/platform';
import { Topics } from '@irp/proto';
import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import type { EmailMarketingConfig } from '../config';
import { DeliveriesRepository } from './deliveries.repository';
import { batchKey, DELIVERY_BATCH } from './delivery-rules';
import { DeliveryService } from './delivery.service';
import { claimsTakenOver } from './metrics';
import { chunks } from './send-message';
import { SendsRepository } from './sends.repository';

const log = createLogger('sweeper');

const SWEEP_LIMIT = 10_000;

/**
 * The senders' housekeeping, two singleton jobs (one instance at a time each). The takeover, every
 * CLAIM_TAKEOVER_INTERVAL_MS (1 s): claims whose owner's lock is free (their sender died mid-send) are queued
 * again and sent by the process running the job. The sweep, every SWEEP_INTERVAL_MS: deliveries due for a
 * retry (given back and taken over ones among them), first attempts whose batch message was lost, and an
 * earlier version's owner-less claims whose lease ran out get a new batch message; accepted deliveries not yet
 * reported are reported; sends with nothing left open are done.
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
    this.jobs.register({
      name: 'email-marketing:claim-takeover',
      intervalMs: this.config.CLAIM_TAKEOVER_INTERVAL_MS,
      run: () => this.takeOver().then(() => undefined),
    });
  }

  /**
   * Takes over the claims of dead owners and sends them from this process (a sender: the job runs in the
   * sender role). Not through a batch message: one keyed to a partition the dead sender still holds would
   * wait until its consumer group notices the death (its session, 10 s). Should this process fail first, they
   * are queued retries, which the sweep announces. Returns how many were taken.
   */
  async takeOver(): Promise<number> {
    const taken = await this.units.run(async (tx) => {
      const owners = await this.deliveryRows.deadOwners(tx);
      if (!owners.length) return { owners, rows: [] };
      return { owners, rows: await this.deliveryRows.takeOver(tx, owners, SWEEP_LIMIT) };
    });
    if (!taken.rows.length) return 0;
    claimsTakenOver.inc(taken.rows.length);
    log.warn({ owners: taken.owners, claims: taken.rows.length }, "a dead sender's claims taken over");
    const bySend = new Map<string, string[]>();
    for (const r of taken.rows) bySend.set(r.send_id, [...(bySend.get(r.send_id) ?? []), r.id]);
    for (const [sendId, ids] of bySend)
      for (const deliveryIds of chunks(ids, DELIVERY_BATCH))
        await this.deliveries.sendBatch(sendId, deliveryIds);
    return taken.rows.length;
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
