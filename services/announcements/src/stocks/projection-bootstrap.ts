import {
  createLogger,
  KafkaRequester,
  kafkaSettingsOf,
  SERVICE_CONFIG,
  ServiceConfigBase,
  SingletonJobs,
} from '@irp/platform';
import { Topics } from '@irp/proto';
import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  OnApplicationShutdown,
  OnModuleInit,
} from '@nestjs/common';
import { StockProjectionService } from './stock-projection.service';
import { InitialPollService } from '../polling/initial-poll.service';

const log = createLogger('stock-projection');

/**
 * How often the projection is checked against the stocks service (drift repair, and a retry when the
 * stocks service was not up at start; events do the rest).
 */
const BOOTSTRAP_INTERVAL_MS = 5 * 60_000;
const LIST_TIMEOUT_MS = 10_000;

/**
 * Fills the stock projection from `stocks.list`: at start and hourly, on one api instance. Events keep it
 * current, but a consumer group joins at the latest offset, so stocks saved before this service first ran
 * (or while its events aged out of the topic) would otherwise never be known here. Applying a stock is
 * ordered by its `updatedAt`, so this never undoes a newer event.
 */
@Injectable()
export class ProjectionBootstrap implements OnModuleInit, BeforeApplicationShutdown, OnApplicationShutdown {
  private requester?: KafkaRequester;
  /** Resolves when the app shuts down, so a run waiting for the stocks service does not hold shutdown up. */
  private stopped!: () => void;
  private readonly stopping = new Promise<void>((resolve) => (this.stopped = resolve));

  constructor(
    private readonly jobs: SingletonJobs,
    private readonly projection: StockProjectionService,
    private readonly initialPolls: InitialPollService,
    @Inject(SERVICE_CONFIG) private readonly config: ServiceConfigBase,
  ) {}

  onModuleInit() {
    this.jobs.register({
      name: 'announcements:stock-projection',
      intervalMs: BOOTSTRAP_INTERVAL_MS,
      run: async () => {
        await Promise.race([this.run(), this.stopping]);
      },
    });
  }

  async run(): Promise<number> {
    if (!this.requester) {
      const requester = new KafkaRequester({
        ...kafkaSettingsOf(this.config, 'announcements-projection'),
        topics: [Topics.StocksList],
        timeoutMs: LIST_TIMEOUT_MS,
      });
      await requester.connect();
      this.requester = requester;
    }
    const { stocks } = await this.requester.request(Topics.StocksList, {});
    let changed = 0;
    for (const stock of stocks) {
      const applied = await this.projection.apply(stock);
      if (applied) {
        changed += 1;
        await this.initialPolls.considerStock(applied);
      }
    }
    log.info({ stocks: stocks.length, changed }, 'stock projection checked against the stocks service');
    return changed;
  }

  async beforeApplicationShutdown() {
    this.stopped();
  }

  async onApplicationShutdown() {
    await this.requester?.close();
  }
}
