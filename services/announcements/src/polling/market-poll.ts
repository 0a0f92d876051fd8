import { createLogger, KAFKA_PRODUCER } from '@irp/platform';
import { type PollRequestedEvent, Topics } from '@irp/proto';
import { Inject, Injectable } from '@nestjs/common';
import type { Producer } from 'kafkajs';
import { publishPollWork } from '../ingestion/poll-publisher';
import { fanOut, marketPairs, storedKey, tickerKey } from '../ingestion/poll-rules';
import { SourceProvider } from '../ingestion/source-provider';
import { PollRepository } from './poll.repository';
import { SourceCalls } from './source-calls';

const log = createLogger('poller');

/**
 * The whole market in one call (asx2), fanned out on `announcements.market-items-listed`: per polled stock
 * with items (or downloads pending) one message carrying them, keyed by stock id, which the pollers take in
 * a consumer of their own and store in parallel. The work follows the read (the stocks of its tickers, by
 * index), not the number of polled stocks.
 */
@Injectable()
export class MarketPoll {
  /** This process's last market read that was fanned out: its source, the polled set's mark, its keys. */
  private seen?: { source: string; polledSet: string; keys: ReadonlySet<string> };

  constructor(
    private readonly rows: PollRepository,
    private readonly sources: SourceProvider,
    private readonly calls: SourceCalls,
    @Inject(KAFKA_PRODUCER) private readonly producer: Producer,
  ) {}

  async poll(event: PollRequestedEvent): Promise<string> {
    const source = await this.sources.get();
    if (!source.marketWide || !source.latestMarket) {
      // The setting changed since the tick: the next tick publishes per-stock polls instead.
      log.info({ source: source.name }, 'market-wide poll for a per-stock source; skipped');
      return 'skipped';
    }
    const latestMarket = source.latestMarket.bind(source);
    // Only what is newer than this process's last read is fetched, while the polled stocks are those of that
    // read: a stock polled since (or a fresh process, another source) reads every page again, so the items of
    // a ticker that was not polled then are not passed over. The mark is taken before the stocks are looked
    // up, beside the read: a stock polled after it changes the next read's mark.
    const last = this.seen?.source === source.name ? this.seen : undefined;
    const [newer, polledSet] = await Promise.all([
      this.calls.call(source, 'latest market', () => latestMarket(last?.keys)),
      this.rows.polledSetMark(),
    ]);
    const fetched =
      newer.ok && last && last.polledSet !== polledSet
        ? await this.calls.call(source, 'latest market', () => latestMarket())
        : newer;
    if (!fetched.ok) return 'source-failed';
    const items = fetched.value;
    const stocks = await this.rows.dueStocksOf([...new Set(items.map((item) => tickerKey(item.ticker)))]);
    const withPending = new Set(stocks.filter((s) => s.pending).map((s) => s.id));
    // The feed repeats what it showed before (every item of its pages, every interval): only what is not
    // stored yet goes to the pollers, found with one index lookup per (stock, source key) pair.
    const pairs = marketPairs(items, stocks);
    const known = pairs.stockIds.length ? await this.rows.storedPairs(pairs.stockIds, pairs.sourceKeys) : [];
    const stored = new Set(known.map((k) => storedKey(k.stockId, k.sourceKey)));
    const requests = fanOut(items, stocks, event.requestedAt, withPending, stored);
    await publishPollWork(this.producer, {
      topic: Topics.AnnouncementsMarketItemsListed,
      kind: 'fan-out',
      requests,
    });
    this.seen = { source: source.name, polledSet, keys: new Set(items.map((item) => item.sourceKey)) };
    log.info({ items: items.length, stocks: requests.length }, 'market poll fanned out');
    return 'ok';
  }
}
