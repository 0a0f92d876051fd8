import { createLogger, SERVICE_CONFIG, SingletonJobs } from '@irp/platform';
import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import type { StocksConfig } from '../config';
import { ServiceOrdersRepository } from './service-orders.repository';

const log = createLogger('service-orders');

export const PURGE_STALE_SERVICE_ORDERS_JOB = 'stocks:purge-service-orders';

const DAY_MS = 86_400_000;

type PurgeConfig = Pick<StocksConfig, 'SERVICE_ORDER_RETENTION_DAYS' | 'SERVICE_ORDER_PURGE_INTERVAL_MS'>;

/**
 * Deletes the orders never turned into a stock once SERVICE_ORDER_RETENTION_DAYS have passed since they
 * were placed: the public form's contact details are not kept for a client that never came (a singleton
 * job: one instance runs it). An order made into a stock stays, as its stock's record.
 */
@Injectable()
export class PurgeStaleServiceOrders implements OnModuleInit {
  constructor(
    private readonly jobs: SingletonJobs,
    private readonly orders: ServiceOrdersRepository,
    @Inject(SERVICE_CONFIG) private readonly config: PurgeConfig,
  ) {}

  onModuleInit() {
    this.jobs.register({
      name: PURGE_STALE_SERVICE_ORDERS_JOB,
      intervalMs: this.config.SERVICE_ORDER_PURGE_INTERVAL_MS,
      run: async () => {
        await this.run();
      },
    });
  }

  async run(): Promise<number> {
    const cutoff = new Date(Date.now() - this.config.SERVICE_ORDER_RETENTION_DAYS * DAY_MS);
    const purged = await this.orders.deleteUncreatedPlacedBefore(cutoff);
    if (purged) log.info({ purged, before: cutoff.toISOString() }, 'stale service orders deleted');
    return purged;
  }
}
