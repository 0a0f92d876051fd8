import { createLogger, SERVICE_CONFIG } from '@irp/platform';
import type { MarketItemsListedEvent, PollRequestedEvent } from '@irp/proto';
import { Inject, Injectable } from '@nestjs/common';
import type { AnnouncementsConfig } from '../config';
import { SystemSettingsService } from '../settings/system-settings.service';
import type { SourceAnnouncement } from '../sources/source';
import { AnnouncementStore } from '../ingestion/announcement-store';
import { AutoSendService } from '../auto-send/auto-send.service';
import { InitialPollReads } from '../initial-poll/initial-poll-reads';
import { pollSeconds } from '../ingestion/metrics';
import { isDue, isPollingDisabled, isStalePoll, tickerKey } from '../ingestion/poll-rules';
import { PollRepository } from './poll.repository';
import { SourceProvider } from '../ingestion/source-provider';
import { MarketPoll } from './market-poll';
import { SourceCalls } from './source-calls';

const log = createLogger('poller');

/**
 * The poller role's work (consumer group `announcements.poller`, any number of instances): one stock's
 * poll, the market-wide poll (MarketPoll), and a market read's items for one stock (in the consumer
 * `announcements.poller.market-items`). A source that fails is retried within the handler, then counted in
 * source_health and the message is done: the next tick polls again. Only a database that stays away makes
 * the handler fail.
 */
@Injectable()
export class PollService {
  constructor(
    private readonly rows: PollRepository,
    private readonly sources: SourceProvider,
    private readonly calls: SourceCalls,
    private readonly market: MarketPoll,
    private readonly settings: SystemSettingsService,
    private readonly store: AnnouncementStore,
    private readonly autoSend: AutoSendService,
    private readonly initialPolls: InitialPollReads,
    @Inject(SERVICE_CONFIG) private readonly config: AnnouncementsConfig,
  ) {}

  /** Handles one `announcements.poll-requested`: a stock's poll, or the market's. */
  async handle(event: PollRequestedEvent): Promise<void> {
    // A poll outdated by newer ticks is skipped: the next one asks the source again.
    if (isStalePoll(event.requestedAt, new Date(), this.config.POLL_INTERVAL_MS)) {
      log.debug(
        { stockId: event.stockId, requestedAt: event.requestedAt },
        'poll request outdated by newer ticks; skipped',
      );
      return;
    }
    await this.timed(event.market ? 'market' : 'stock', () =>
      event.market ? this.market.poll(event) : this.pollStock(event.stockId),
    );
  }

  /**
   * Handles one `announcements.market-items-listed`. However old, it is done: its items are facts the market
   * poller read once and passed on, and the next read does not pass them again.
   */
  async listed(event: MarketItemsListedEvent): Promise<void> {
    await this.timed('fan-out', () => this.pollStock(event.stockId, event.items));
  }

  /**
   * Runs a poll unless polling is disabled: that stops the work already queued too, not only the scheduler's
   * next ticks. The database away fails the poll; the platform's handler retry policy tries it again.
   */
  private async timed(kind: string, poll: () => Promise<string>): Promise<void> {
    const settings = await this.settings.entity();
    if (isPollingDisabled(settings.disablePollUntil, new Date())) return;
    const timer = pollSeconds.startTimer({ kind });
    let outcome = 'ok';
    try {
      outcome = await poll();
    } catch (error) {
      outcome = 'error';
      throw error;
    } finally {
      timer({ outcome });
    }
  }

  /** One stock's poll: the items given (a market read's), or those its source lists now. */
  private async pollStock(stockId: string | null, given?: readonly SourceAnnouncement[]): Promise<string> {
    if (!stockId) return 'skipped';
    const stock = await this.rows.stock(stockId);
    // Archived, switched off or expired since the tick: not polled any more.
    if (!stock || !isDue({ ...stock, initialPollCompleted: await this.initialPolls.completed(stock.id) }))
      return 'skipped';
    const source = await this.sources.get();
    let items = given;
    if (!items) {
      const fetched = await this.calls.call(source, `latest ${stock.ticker}`, () =>
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
}
