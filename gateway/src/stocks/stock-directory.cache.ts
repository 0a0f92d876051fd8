import { combinedTickerOf, parseCombinedTicker, Topics } from '@irp/proto';
import { Provider } from '@nestjs/common';
import { STOCK_DIRECTORY, StockDirectory } from '../auth/stock-directory';
import { GATEWAY_CONFIG, GatewayConfig } from '../config';
import { ServicesClient } from '../kafka/services.client';

export type ResolveStock = (combinedTicker: string) => Promise<string | null>;

/** The longest combinedTicker the stocks service resolves (its request schema's limit). */
export const MAX_COMBINED_TICKER_LENGTH = 40;

/**
 * The per-stock role check's combinedTicker -> stock id lookup. Answers are kept `ttlMs` (a page's burst
 * of calls costs one round trip) in a map of at most `maxEntries`, least recently used out first, and
 * concurrent lookups of one stock share a request. Only found stocks are kept: a stock created a moment
 * ago must not stay "not found". This gateway's change-ticker and archive routes call `forget()` (a
 * save never changes the ticker, exchange or id); another instance's changes show here within the TTL,
 * which is why routes that read a stock by name check the role again on the stock they read.
 */

export class CachedStockDirectory implements StockDirectory {
  private readonly cache = new Map<string, { id: string; until: number }>();
  private readonly inFlight = new Map<string, Promise<string | null>>();

  constructor(
    private readonly resolve: ResolveStock,
    private readonly ttlMs: number,
    private readonly maxEntries: number,
  ) {}

  async stockIdOf(combinedTicker: string): Promise<string | null> {
    const parsed = parseCombinedTicker(combinedTicker);
    if (!parsed) return null;
    const key = combinedTickerOf(parsed.ticker, parsed.exchange);
    // No stock has a longer name, and asking would be refused with a 400 that names the topic.
    if (key.length > MAX_COMBINED_TICKER_LENGTH) return null;
    const hit = this.cache.get(key);
    if (hit) {
      this.cache.delete(key);
      if (hit.until > Date.now()) {
        this.cache.set(key, hit);
        return hit.id;
      }
    }
    const pending = this.inFlight.get(key);
    if (pending) return pending;
    const lookup: Promise<string | null> = this.resolve(key)
      .then((id) => {
        // A forget() while this lookup ran means its answer may be stale: use it once, do not keep it.
        if (id && this.ttlMs > 0 && this.inFlight.get(key) === lookup) this.remember(key, id);
        return id;
      })
      .finally(() => {
        if (this.inFlight.get(key) === lookup) this.inFlight.delete(key);
      });
    this.inFlight.set(key, lookup);
    return lookup;
  }

  /** Drops every kept answer: a ticker change or archive may have changed any of them. */
  forget(): void {
    this.cache.clear();
    this.inFlight.clear();
  }

  get size(): number {
    return this.cache.size;
  }

  private remember(key: string, id: string): void {
    while (this.cache.size >= this.maxEntries) {
      const oldest = this.cache.keys().next().value;
      if (oldest === undefined) break;
      this.cache.delete(oldest);
    }
    this.cache.set(key, { id, until: Date.now() + this.ttlMs });
  }
}

/** The directory backed by the stocks service (`stocks.resolve`), also under the guard's STOCK_DIRECTORY. */
export const stockDirectoryProviders: Provider[] = [
  {
    provide: CachedStockDirectory,
    inject: [ServicesClient, GATEWAY_CONFIG],
    useFactory: (services: ServicesClient, config: GatewayConfig) =>
      new CachedStockDirectory(
        async (combinedTicker) => (await services.request(Topics.StocksResolve, { combinedTicker })).id,
        config.STOCK_DIRECTORY_CACHE_MS,
        config.STOCK_DIRECTORY_CACHE_SIZE,
      ),
  },
  { provide: STOCK_DIRECTORY, useExisting: CachedStockDirectory },
];
