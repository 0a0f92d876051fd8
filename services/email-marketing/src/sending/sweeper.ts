import { createLogger, Outbox, SERVICE_CONFIG, SingletonJobs } from '@irp/platform';
import { Topics } from '@irp/proto';
import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { EmailMarketingConfig } from '../config';
import { DeliveryService } from './delivery.service';
import { DELIVERY_BATCH } from './send-requests.service';
import { chunks } from './send-message';

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
    private readonly dataSource: DataSource,
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
    const unreported: Array<{ send_id: string }> = await this.dataSource.query(
      `SELECT DISTINCT d.send_id FROM email_marketing.deliveries d
       JOIN email_marketing.sends x ON x.id = d.send_id AND x.kind = 'announcement'
       WHERE d.status = 'sent' AND NOT d.reported AND d.accepted_at < now() - interval '2 seconds'`,
    );
    for (const { send_id } of unreported) reported += await this.deliveries.report(send_id);
    const done: unknown[] = await this.dataSource.query(
      `WITH changed AS (UPDATE email_marketing.sends x SET status = 'done'
       WHERE x.status = 'sending' AND NOT EXISTS (
         SELECT 1 FROM email_marketing.deliveries d WHERE d.send_id = x.id AND d.status IN ('queued', 'sending'))
       RETURNING x.id) SELECT * FROM changed`,
    );
    if (requeued || reported) log.info({ requeued, reported, done: done.length }, 'deliveries swept');
    return { requeued, reported, done: done.length };
  }

  private async requeue(): Promise<number> {
    return this.dataSource.transaction(async (m) => {
      const rows: Array<{ id: string; send_id: string; stock_id: string | null }> = await m.query(
        `WITH changed AS (UPDATE email_marketing.deliveries d SET queued_at = now()
         FROM email_marketing.sends x
         WHERE x.id = d.send_id AND d.id IN (
           SELECT id FROM email_marketing.deliveries
           WHERE (status = 'queued' AND not_before <= now()
                  -- a retry (attempted before) has no batch message waiting; a first attempt has one
                  -- unless it was lost, which only time tells
                  AND (attempts > 0 OR queued_at < now() - make_interval(secs => $1::float8 / 1000)))
              OR (status = 'sending' AND lease_until < now()
                  AND queued_at < now() - make_interval(secs => $1::float8 / 1000))
           LIMIT $2 FOR UPDATE SKIP LOCKED)
         RETURNING d.id, d.send_id, x.stock_id) SELECT * FROM changed`,
        [this.config.DELIVERY_ORPHAN_AFTER_MS, SWEEP_LIMIT],
      );
      const bySend = new Map<string, { stockId: string | null; ids: string[] }>();
      for (const r of rows) {
        const entry = bySend.get(r.send_id) ?? { stockId: r.stock_id, ids: [] };
        entry.ids.push(r.id);
        bySend.set(r.send_id, entry);
      }
      for (const [sendId, { stockId, ids }] of bySend) {
        for (const [i, deliveryIds] of chunks(ids, DELIVERY_BATCH).entries()) {
          await this.outbox.add(m, Topics.EmailDeliveriesQueued, `${sendId}:retry:${i}`, {
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
