import { SERVICE_CONFIG, ServiceConfigBase, SingletonJobs, StocksBootstrap } from '@irp/platform';
import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  OnApplicationShutdown,
  OnModuleInit,
} from '@nestjs/common';
import { InitialPollService } from '../polling/initial-poll.service';
import { StockProjectionService } from './stock-projection.service';

/**
 * Fills the stock projection from `stocks.list` at start and every few minutes (the platform's
 * StocksBootstrap); a stock it changes is considered for an initial poll, as an event's would be.
 */
@Injectable()
export class ProjectionBootstrap implements OnModuleInit, BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly bootstrap: StocksBootstrap;

  constructor(
    private readonly jobs: SingletonJobs,
    projection: StockProjectionService,
    initialPolls: InitialPollService,
    @Inject(SERVICE_CONFIG) config: ServiceConfigBase,
  ) {
    this.bootstrap = new StocksBootstrap(config, {
      service: 'announcements',
      apply: async (stock) => {
        const applied = await projection.apply(stock);
        if (applied) await initialPolls.considerStock(applied);
        return applied !== null;
      },
    });
  }

  onModuleInit() {
    this.bootstrap.register(this.jobs);
  }

  run(): Promise<number> {
    return this.bootstrap.run();
  }

  beforeApplicationShutdown() {
    this.bootstrap.stop();
  }

  async onApplicationShutdown() {
    await this.bootstrap.close();
  }
}
