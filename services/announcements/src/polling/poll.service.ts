import {
  createLogger,
  errorText,
  KAFKA_PRODUCER,
  SERVICE_CONFIG,
  UnitOfWork,
  withTimeout,
} from '@irp/platform';
import type { PollRequestedEvent } from '@irp/proto';
import { Inject, Injectable } from '@nestjs/common';
import type { Producer } from 'kafkajs';
import type { AnnouncementsConfig } from '../config';
import { SystemSettingsService } from '../settings/system-settings.service';
import type { AnnouncementSource, SourceAnnouncement } from '../sources/source';
import { withSourceRetries } from '../sources/source-retries';
import { AnnouncementStore } from '../ingestion/announcement-store';
import { AutoSendService } from '../auto-send/auto-send.service';
import { InitialPollReads } from '../initial-poll/initial-poll-reads';
import { ErrorReporter } from '../error-reports/error-reporter';
import { pollSeconds } from '../ingestion/metrics';
import { publishPollRequests } from '../ingestion/poll-publisher';
import {
  fanOut,
  isDue,
  isPollingDisabled,
  isStalePoll,
  marketPairs,
  storedKey,
  tickerKey,
} from '../ingestion/poll-rules';
import { SourceHealth } from '../source-health/source-health';
import { SourceHealthRepository } from '../source-health/source-health.repository';
import { PollRepository } from './poll.repository';
import { SourceProvider } from '../ingestion/source-provider';

const log = createLogger('poller');

export type SourceCall<T> = { ok: true; value: T } | { ok: false; error: string };

/**
 * The poller role's work (consumer group `announcements.poller`, any number of instances): one stock's
 * poll, or the market-wide poll that is fanned out to the stocks' pollers. A source that fails is retried
 * within the handler, then counted in source_health and the message is done: the next tick polls again.
 * Only a database that stays away makes the handler fail.
 */
@Injectable()
export class PollService {
  private readonly health: SourceHealth;
  /** This process's last market read that was fanned out: its source, the polled set's mark, its keys. */
  private marketSeen?: { source: string; polledSet: string; keys: ReadonlySet<string> };

  constructor(
    private readonly rows: PollRepository,
    healthRows: SourceHealthRepository,
    unitOfWork: UnitOfWork,
    private readonly sources: SourceProvider,
    private readonly settings: SystemSettingsService,
    private readonly store: AnnouncementStore,
    private readonly autoSend: AutoSendService,
    private readonly initialPolls: InitialPollReads,
    reporter: ErrorReporter,
    @Inject(KAFKA_PRODUCER) private readonly producer: Producer,
    @Inject(SERVICE_CONFIG) private readonly config: AnnouncementsConfig,
  ) {
    this.health = new SourceHealth(healthRows, unitOfWork, reporter, config.SOURCE_FAILURE_STREAK);
  }

  /** Handles one `announcements.poll-requested`. */
  async handle(event: PollRequestedEvent): Promise<void> {
    const now = new Date();
    // A poll outdated by newer ticks is skipped (the next one asks the source again), but a market read's
    // fan-out carrying items is not: those items are facts the market poller read once and passed on.
    const carriesItems = (event.items?.length ?? 0) > 0;
    if (!carriesItems && isStalePoll(event.requestedAt, now, this.config.POLL_INTERVAL_MS)) {
      log.debug(
        { stockId: event.stockId, requestedAt: event.requestedAt },
        'poll request outdated by newer ticks; skipped',
      );
      return;
    }
    // Disabling polling stops the requests already queued too, not only the scheduler's next ticks.
    // The database away fails the poll; the platform's handler retry policy tries it again (from the stale
    // check above: a poll that outlived newer ticks is left to them).
    const settings = await this.settings.entity();
    if (isPollingDisabled(settings.disablePollUntil, now)) return;
    const kind = event.market ? 'market' : event.items ? 'fan-out' : 'stock';
    const timer = pollSeconds.startTimer({ kind });
    let outcome = 'ok';
    try {
      outcome = await (event.market ? this.pollMarket(event) : this.pollStock(event));
    } catch (error) {
      outcome = 'error';
      throw error;
    } finally {
      timer({ outcome });
    }
  }

  /**
   * The source call of a poll: with backoff on failure (SOURCE_RETRY_DELAYS_MS), each try bounded by
   * SOURCE_TIMEOUT_MS; the outcome is counted in the source's health.
   */
  async callSource<T>(
    source: AnnouncementSource,
    what: string,
    call: () => Promise<T>,
  ): Promise<SourceCall<T>> {
    try {
      const value = await withSourceRetries(
        () => withTimeout(call(), this.config.SOURCE_TIMEOUT_MS + 1000, what),
        {
          onRetry: (error, attempt, delayMs) =>
            log.info(
              { source: source.name, what, attempt, delayMs, err: errorText(error) },
              'source call failed; retrying',
            ),
        },
      );
      await this.health.succeeded(source.name);
      return { ok: true, value };
    } catch (error) {
      const text = errorText(error);
      await this.health.failed(source.name, `${what}: ${text}`);
      return { ok: false, error: text };
    }
  }

  private async pollStock(event: PollRequestedEvent): Promise<string> {
    if (!event.stockId) return 'skipped';
    const stock = await this.rows.stock(event.stockId);
    // Archived, switched off or expired since the tick: not polled any more.
    if (!stock || !isDue({ ...stock, initialPollCompleted: await this.initialPolls.completed(stock.id) }))
      return 'skipped';
    const source = await this.sources.get();
    let items: readonly SourceAnnouncement[];
    if (event.items) {
      items = event.items;
    } else {
      const fetched = await this.callSource(source, `latest ${stock.ticker}`, () =>
        source.latest(stock.ticker),
      );
      if (!fetched.ok) return 'source-failed';
      items = fetched.value;
    }
    const mine = items.filter((i) => tickerKey(i.ticker) === tickerKey(stock.ticker));
    const stored = await this.store.storeDetected(stock, mine, 'poll');
    await this.store.downloadPending(stock, source);
    // After the downloads, so an alert's link to its document works when the mail arrives.
    const storedIds = stored.map((a) => a.id);
    if (storedIds.length) await this.autoSend.decideStored(stock.id, storedIds);
    return 'ok';
  }

  /**
   * The whole market in one call (asx2), fanned out: per polled stock with items (or downloads pending) a
   * per-stock poll request carrying them, keyed by stock id, so the pollers store them in parallel. The work
   * follows the read (the stocks of its tickers, by index), not the number of polled stocks.
   */
  private async pollMarket(event: PollRequestedEvent): Promise<string> {
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
    const last = this.marketSeen?.source === source.name ? this.marketSeen : undefined;
    const [newer, polledSet] = await Promise.all([
      this.callSource(source, 'latest market', () => latestMarket(last?.keys)),
      this.rows.polledSetMark(),
    ]);
    const fetched =
      newer.ok && last && last.polledSet !== polledSet
        ? await this.callSource(source, 'latest market', () => latestMarket())
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
    await publishPollRequests(this.producer, requests, 'fan-out');
    this.marketSeen = {
      source: source.name,
      polledSet,
      keys: new Set(items.map((item) => item.sourceKey)),
    };
    log.info({ items: items.length, stocks: requests.length }, 'market poll fanned out');
    return 'ok';
  }
}
