import { Stock, Topics } from '@irp/proto';
import { kafkaSettingsOf, ServiceConfigBase } from '../config';
import { createLogger } from '../logging';
import { KafkaRequester } from '../requester';
import { SingletonJobs } from '../singleton-job';

const log = createLogger('stock-projection');

/**
 * How often a projection is checked against the stocks service (drift repair, and a retry when the stocks
 * service was not up at start; events do the rest).
 */
export const STOCKS_BOOTSTRAP_INTERVAL_MS = 5 * 60_000;
const LIST_TIMEOUT_MS = 10_000;

export interface StocksBootstrapOptions {
  /** The service whose projection this fills (names the job and the Kafka client). */
  service: string;
  /** Applies one stock to the projection; true when it changed something (ordered by `updatedAt`). */
  apply: (stock: Stock) => Promise<boolean>;
  intervalMs?: number;
}

/**
 * Fills a service's projection of the stocks from `stocks.list`: at start and every few minutes, on one
 * instance (a singleton job). `stock.upserted` events keep a projection current, but a consumer group joins
 * at the latest offset, so stocks saved before the service first ran (or while their events aged out of the
 * topic) would otherwise never be known to it. Applying a stock is ordered by its `updatedAt`, so this never
 * undoes a newer event. Register it from a provider's onModuleInit; close it on shutdown.
 */
export class StocksBootstrap {
  private requester?: KafkaRequester;
  private stopped!: () => void;
  /** Resolves on close, so a run waiting for the stocks service does not hold shutdown up. */
  private readonly stopping = new Promise<void>((resolve) => (this.stopped = resolve));

  constructor(
    private readonly config: ServiceConfigBase,
    private readonly options: StocksBootstrapOptions,
  ) {}

  register(jobs: SingletonJobs): void {
    jobs.register({
      name: `${this.options.service}:stock-projection`,
      intervalMs: this.options.intervalMs ?? STOCKS_BOOTSTRAP_INTERVAL_MS,
      run: async () => {
        await Promise.race([this.run(), this.stopping]);
      },
    });
  }

  /** One check: every stock of the stocks service applied; how many changed the projection. */
  async run(): Promise<number> {
    if (!this.requester) {
      const requester = new KafkaRequester({
        ...kafkaSettingsOf(this.config, `${this.options.service}-projection`),
        topics: [Topics.StocksList],
        timeoutMs: LIST_TIMEOUT_MS,
      });
      await requester.connect();
      this.requester = requester;
    }
    const { stocks } = await this.requester.request(Topics.StocksList, {});
    let changed = 0;
    for (const stock of stocks) if (await this.options.apply(stock)) changed += 1;
    log.info({ stocks: stocks.length, changed }, 'stock projection checked against the stocks service');
    return changed;
  }

  /** Stops a run in progress from holding shutdown (call before shutdown), then closes the client. */
  stop(): void {
    this.stopped();
  }

  async close(): Promise<void> {
    this.stopped();
    await this.requester?.close();
  }
}
