import { createLogger, UnitOfWork } from '@irp/platform';
import { Injectable } from '@nestjs/common';
import { DeliveriesRepository } from './deliveries.repository';
import { DELIVERY_BATCH } from './delivery-rules';
import { DeliverBatch } from './deliver-batch';
import { claimsTakenOver } from './metrics';
import { chunks } from './send-message';

const log = createLogger('sweeper');

/** Most claims taken over in one run. */
const TAKEOVER_LIMIT = 10_000;

/**
 * The takeover (ADR 0010), a singleton job every CLAIM_TAKEOVER_INTERVAL_MS (delivery-jobs.ts): claims whose
 * owner's lock is free (their sender died mid-send) are queued again and sent by the process running the job.
 */
@Injectable()
export class TakeOverClaims {
  constructor(
    private readonly deliveries: DeliveriesRepository,
    private readonly units: UnitOfWork,
    private readonly delivering: DeliverBatch,
  ) {}

  /**
   * Takes over the claims of dead owners and sends them from this process (a sender: the job runs in the
   * sender role). Not through a batch message: one keyed to a partition the dead sender still holds would
   * wait until its consumer group notices the death (its session, 10 s). Should this process fail first, they
   * are queued retries, which the sweep announces. Returns how many were taken.
   */
  async run(): Promise<number> {
    const taken = await this.units.run(async (tx) => {
      const owners = await this.deliveries.deadOwners(tx);
      if (!owners.length) return { owners, rows: [] };
      return { owners, rows: await this.deliveries.takeOver(tx, owners, TAKEOVER_LIMIT) };
    });
    if (!taken.rows.length) return 0;
    claimsTakenOver.inc(taken.rows.length);
    log.warn({ owners: taken.owners, claims: taken.rows.length }, "a dead sender's claims taken over");
    const bySend = new Map<string, string[]>();
    for (const r of taken.rows) bySend.set(r.sendId, [...(bySend.get(r.sendId) ?? []), r.id]);
    for (const [sendId, ids] of bySend)
      for (const deliveryIds of chunks(ids, DELIVERY_BATCH)) await this.delivering.admit(sendId, deliveryIds);
    return taken.rows.length;
  }
}
