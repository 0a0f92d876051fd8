import { readStockList, Stock, Topics } from '@irp/proto';
import { ServiceConfigBase } from '../config';
import { createLogger } from '../logging';
import { ProjectionBootstrap } from '../projection-bootstrap';

const log = createLogger('stock-projection');

/**
 * How often a projection is checked against the stocks service (drift repair, and a retry when the stocks
 * service was not up at start; events do the rest).
 */
export const STOCKS_BOOTSTRAP_INTERVAL_MS = 5 * 60_000;

export interface StocksBootstrapOptions {
  /** The service whose projection this fills (names the job and the Kafka client). */
  service: string;
  /** Applies one stock to the projection; true when it changed something (ordered by `updatedAt`). */
  apply: (stock: Stock) => Promise<boolean>;
  intervalMs?: number;
}

/**
 * A projection of the stocks filled from `stocks.list`, page by page (the singleton job `<service>:stock-projection`): every
 * stock applied at start and every few minutes. Applying a stock is ordered by its `updatedAt`, so this
 * never undoes a newer `stock.upserted`.
 */
export function stocksBootstrap(
  config: ServiceConfigBase,
  options: StocksBootstrapOptions,
): ProjectionBootstrap {
  return new ProjectionBootstrap(config, {
    job: `${options.service}:stock-projection`,
    client: `${options.service}-projection`,
    topics: [Topics.StocksList],
    intervalMs: options.intervalMs ?? STOCKS_BOOTSTRAP_INTERVAL_MS,
    async check(requester) {
      const stocks = await readStockList((page) => requester.request(Topics.StocksList, page));
      let changed = 0;
      for (const stock of stocks) if (await options.apply(stock)) changed += 1;
      log.info({ stocks: stocks.length, changed }, 'stock projection checked against the stocks service');
    },
  });
}
