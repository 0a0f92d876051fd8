import type { Outbox, SingletonJobs, UnitOfWork } from '@irp/platform';
import type { ReportsConfig } from '../config';
import type { StockProjectionService } from '../stocks/stock-projection.repository';
import type { StockProjectionEntity } from '../stocks/stock-projection.entity';
import type { MarketDataProvider } from './market-data.provider';
import { MarketJobs, WATCHLIST_JOB } from './market-jobs';
import type { MarketRepository } from './market.repository';

const FIFTEEN_MINUTES = 15 * 60_000;

const stockOf = (ticker: string, fields: Partial<StockProjectionEntity> = {}) =>
  ({
    id: `id-${ticker}`,
    ticker,
    combinedTicker: `${ticker}:ASX`,
    archived: false,
    disableMarketData: false,
    ...fields,
  }) as StockProjectionEntity;

/**
 * The jobs over fakes: a projection whose watchlist the test fills and whose change listeners it calls, a
 * provider that quotes every code, a repository that records the quotes saved. The scheduled job is only
 * registered (the interval never elapses here), so a quote saved comes from the stock's arrival.
 */
function jobsWith(config: Partial<ReportsConfig> = {}) {
  const watchlist: StockProjectionEntity[] = [];
  const listeners: Array<(stock: StockProjectionEntity) => void> = [];
  const saved: string[] = [];
  const registered: string[] = [];
  const quote = (code: string) => ({ code, last: 1.5, bid: 1.49, ask: 1.51 });
  const jobs = new MarketJobs(
    { register: (job: { name: string }) => registered.push(job.name) } as unknown as SingletonJobs,
    {
      saveQuote: async ({ stockId }: { stockId: string }) => void saved.push(stockId),
      clearGap: async () => undefined,
    } as unknown as MarketRepository,
    {
      onStockChanged: (listener: (stock: StockProjectionEntity) => void) => listeners.push(listener),
      watchlist: async () => watchlist,
    } as unknown as StockProjectionService,
    {
      configured: true,
      use: () => ({ quotes: async (codes: string[]) => codes.map(quote) }),
    } as unknown as MarketDataProvider,
    {} as UnitOfWork,
    {} as Outbox,
    {
      WATCHLIST_SYNC_INTERVAL_MS: FIFTEEN_MINUTES,
      PRIOR_DAY_INTERVAL_MS: FIFTEEN_MINUTES,
      MARKET_HISTORY_DAYS: 0,
      MARKET_JOBS_DISABLED: false,
      ...config,
    } as ReportsConfig,
  );
  jobs.onModuleInit();
  /** A stock arrives in the projection (a new stock, or the projection filling at start). */
  const arrive = (stock: StockProjectionEntity) => {
    if (!stock.archived && !stock.disableMarketData) watchlist.push(stock);
    for (const listener of listeners) listener(stock);
  };
  return { jobs, arrive, saved, registered };
}

describe('market jobs: the watchlist sync', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('quotes a stock new to the watchlist within seconds, not at the next scheduled run', async () => {
    const { jobs, arrive, saved, registered } = jobsWith();
    expect(registered).toContain(WATCHLIST_JOB);
    // The projection fills at start: several stocks at once, one sync for them all.
    arrive(stockOf('BHP'));
    arrive(stockOf('RIO'));
    await jest.advanceTimersByTimeAsync(1000);
    expect(saved).toEqual([]);
    await jest.advanceTimersByTimeAsync(1500);
    expect(saved).toEqual(['id-BHP', 'id-RIO']);
    // A stock added later: its quote too.
    arrive(stockOf('WBC'));
    await jest.advanceTimersByTimeAsync(2500);
    expect(saved).toEqual(['id-BHP', 'id-RIO', 'id-BHP', 'id-RIO', 'id-WBC']);
    jobs.onModuleDestroy();
  });

  it('does not sync for a stock whose market data is disabled or that is archived', async () => {
    const { jobs, arrive, saved } = jobsWith();
    arrive(stockOf('CBA', { disableMarketData: true }));
    arrive(stockOf('OLD', { archived: true }));
    await jest.advanceTimersByTimeAsync(5000);
    expect(saved).toEqual([]);
    jobs.onModuleDestroy();
  });
});
