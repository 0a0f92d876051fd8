import {
  createLogger,
  errorText,
  Outbox,
  SERVICE_CONFIG,
  UnitOfWork,
  withTimeout,
  type Tx,
} from '@irp/platform';
import { Topics, type InitialPollRequestedEvent } from '@irp/proto';
import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { AnnouncementsConfig } from '../config';
import type { AnnouncementSource, SourceAnnouncement } from '../sources/source';
import { withSourceRetries } from '../sources/source-retries';
import type { StockProjectionEntity } from '../stocks/stock-projection.entity';
import { AnnouncementStore } from '../polling/announcement-store';
import { ErrorReporter } from '../error-reports/error-reporter';
import type { InitialPollEntity } from './initial-poll.entity';
import { InitialPollsRepository } from './initial-polls.repository';
import { initialPollWindow, yearsToRead } from '../polling/poll-rules';
import { SourceProvider } from '../polling/source-provider';

const log = createLogger('initial-poll');

export { STALLED_AFTER } from './initial-polls.repository';

type RunRef = Pick<InitialPollRequestedEvent, 'stockId' | 'runId'>;

/**
 * Initial polls and resyncs (spec section 3): every announcement of a stock from its announcementStartYear
 * to this year, read year by year by a poller, stored once (natural key), never sent automatically. One row
 * per stock (initial_polls) holds the latest run; a new run gets a new runId and the work of older runs is
 * ignored. This service alone keeps whether a stock's initial poll completed: the scheduler polls a stock
 * once its latest run has, and the gateway composes the Stock's `completedInitialPoll` from
 * `announcements.initial-poll-statuses` (nothing is sent back to the stocks service).
 */
@Injectable()
export class InitialPollService {
  constructor(
    private readonly runs: InitialPollsRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly outbox: Outbox,
    private readonly store: AnnouncementStore,
    private readonly sources: SourceProvider,
    private readonly reporter: ErrorReporter,
    @Inject(SERVICE_CONFIG) private readonly config: AnnouncementsConfig,
  ) {}

  /**
   * Called for every changed stock of the projection. Polling off: the stock's run is forgotten (polling
   * off counts as complete, and switching it on again means a new initial poll, spec section 4). Polling
   * on (and not archived): a run starts unless one is under way or completed; a failed run is tried again
   * when the stock changes after it failed.
   */
  async considerStock(stock: StockProjectionEntity): Promise<void> {
    if (!stock.pollAsx) {
      // A poller working on a forgotten run finds no row and stops (runOnce's "superseded").
      await this.runs.forget(stock.id);
      return;
    }
    if (stock.archived) return;
    await this.start(stock, { supersede: false });
  }

  /** The status of each stock's latest run; stocks without a run are left out. */
  async statusesOf(stockIds: readonly string[]): Promise<Record<string, InitialPollEntity['status']>> {
    if (!stockIds.length) return {};
    const rows = await this.runs.statuses(stockIds);
    return Object.fromEntries(rows.map((r) => [r.stock_id, r.status]));
  }

  /** Whether the stock's latest run completed (what the polling rules call initialPollCompleted). */
  async completed(stockId: string): Promise<boolean> {
    return (await this.progressOf(stockId))?.status === 'completed';
  }

  /** The stock's latest run, if any. */
  progressOf(stockId: string): Promise<InitialPollEntity | null> {
    return this.runs.find(stockId);
  }

  /**
   * Starts a run (a resync with `supersede`, replacing one under way or completed) and publishes the
   * pollers' `initial-poll.requested` in the same transaction. One statement decides, under the row's lock,
   * so two instances considering the same stock at once start one run. Without `supersede` a run starts
   * when the stock has none, its run stalled, or its run failed before the stock's latest change. Returns
   * the new run, or null when none was needed.
   */
  async start(
    stock: StockProjectionEntity,
    { supersede }: { supersede: boolean },
  ): Promise<InitialPollEntity | null> {
    const { fromYear, toYear } = initialPollWindow(stock.announcementStartYear, new Date());
    return this.unitOfWork.run(async (tx) => {
      if (!(await this.runs.startRun(tx, stock.id, { fromYear, toYear }, supersede, stock.updatedAt)))
        return null;
      const run = await this.runs.findOrFail(tx, stock.id);
      await this.requestRun(tx, run, stock.ticker);
      log.info(
        {
          stockId: stock.id,
          combinedTicker: stock.combinedTicker,
          runId: run.runId,
          fromYear,
          toYear,
          supersede,
        },
        'initial poll started',
      );
      return run;
    });
  }

  private requestRun(tx: Tx, run: InitialPollEntity, ticker: string): Promise<void> {
    return this.outbox.add(tx, Topics.InitialPollRequested, run.stockId, {
      stockId: run.stockId,
      runId: run.runId,
      ticker,
      fromYear: run.fromYear,
      toYear: run.toYear,
    });
  }

  /**
   * Runs (or resumes) a requested run on a poller: each year from the one it was reading (or its first) to
   * its last, stored with origin 'initial-poll', documents fetched, progress published; then completed. A
   * request of a superseded run is ignored; a source that keeps failing fails the run and reports it.
   * A database outage is ridden out by the platform's handler retry policy: the retried run resumes at the
   * year its row says.
   */
  async run(event: InitialPollRequestedEvent): Promise<void> {
    const row = await this.progressOf(event.stockId);
    if (!row || row.runId !== event.runId) {
      log.info(
        { stockId: event.stockId, runId: event.runId },
        'initial poll superseded by a newer run; ignored',
      );
      return;
    }
    if (row.status !== 'running') return; // finished already: a redelivered request
    const stock = await this.runs.stock(event.stockId);
    if (!stock) {
      await this.fail(event, null, 'the stock is not known to the announcements service');
      return;
    }
    let source: AnnouncementSource;
    try {
      source = await this.sources.get();
    } catch (error) {
      await this.fail(event, stock, errorText(error));
      return;
    }
    // A resync must read the feed afresh, not pages an earlier walk left in the source's cache.
    if (row.currentYear === null) source.forget?.(stock.ticker);
    for (const year of yearsToRead(row.fromYear, row.toYear, row.currentYear)) {
      // The year being read shows at once ('Sync in Progress: 2019 of 2026, …'): the first year can take
      // long (a per-company feed pages back through the whole history to reach it).
      await this.runs.reading(event, year);
      let items: SourceAnnouncement[];
      try {
        items = await withSourceRetries(
          () =>
            withTimeout(
              source.announcementsOfYear(stock.ticker, year),
              this.config.SOURCE_TIMEOUT_MS + 1000,
              `announcements of ${stock.ticker} in ${year}`,
            ),
          {
            onRetry: (error, attempt, delayMs) =>
              log.info(
                { ticker: stock.ticker, year, attempt, delayMs, err: errorText(error) },
                'source call failed; retrying',
              ),
          },
        );
      } catch (error) {
        await this.fail(event, stock, `${year}: ${errorText(error)}`);
        return;
      }
      const stored = await this.store.storeDetected(stock, items, 'initial-poll');
      await this.store.downloadPending(stock, source);
      if (!(await this.progressed(event, year, stored.length))) {
        log.info({ stockId: stock.id, runId: event.runId }, 'initial poll superseded while running; stopped');
        return;
      }
    }
    await this.complete(event);
  }

  /** Records a finished year and publishes the progress; false when the run is no longer the stock's. */
  private progressed(run: RunRef, year: number, stored: number): Promise<boolean> {
    return this.unitOfWork.run(async (tx) => {
      const p = await this.runs.yearRead(tx, run, year, stored);
      if (!p) return false;
      await this.outbox.add(tx, Topics.InitialPollProgressed, run.stockId, {
        stockId: run.stockId,
        at: new Date().toISOString(),
        fromYear: p.from_year,
        toYear: p.to_year,
        currentYear: year,
        found: p.found,
      });
      return true;
    });
  }

  /** Completes the run: the stock is polled from the scheduler's next tick (dueStocksWhere). */
  private async complete(run: RunRef): Promise<void> {
    const completed = await this.runs.completeRun(run);
    if (!completed) return;
    log.info({ stockId: run.stockId, runId: run.runId, found: completed.found }, 'initial poll completed');
  }

  /**
   * Demo data (seed.ts): records a stock's initial poll as completed (its announcements were seeded),
   * replacing any run. Never in production.
   */
  async recordDemoCompleted(stock: StockProjectionEntity, found: number): Promise<void> {
    const { fromYear, toYear } = initialPollWindow(stock.announcementStartYear, new Date());
    await this.runs.save({
      stockId: stock.id,
      runId: randomUUID(),
      status: 'completed',
      fromYear,
      toYear,
      currentYear: toYear,
      found,
      startedAt: new Date(Date.now() - 60_000),
      completedAt: new Date(),
      error: null,
    });
  }

  private async fail(run: RunRef, stock: StockProjectionEntity | null, error: string): Promise<void> {
    await this.unitOfWork.run(async (tx) => {
      if (!(await this.runs.failRun(tx, run, error))) return;
      const name = stock?.combinedTicker ?? run.stockId;
      log.error({ stockId: run.stockId, runId: run.runId, error }, 'initial poll failed');
      await this.reporter.report(
        `initial-poll-failed:${run.runId}`,
        `Initial poll of ${name} failed`,
        `The initial poll of ${name} failed: ${error}. Its announcements may be incomplete; start a resync when the source works again.`,
        tx,
      );
    });
  }

  /**
   * Hands runs that show no sign of life for STALLED_AFTER (their request was lost: a poller's handler gave
   * up) back to the pollers with the same runId, so they resume where the row says. The progress published
   * with it counts as a sign of life, so a run is handed back once per STALLED_AFTER, not every tick.
   */
  async resumeStalled(): Promise<number> {
    return this.unitOfWork.run(async (tx) => {
      const stalled = await this.runs.lockStalled(tx);
      for (const { stock_id: stockId, ticker } of stalled) {
        const run = await this.runs.findOrFail(tx, stockId);
        await this.requestRun(tx, run, ticker);
        await this.outbox.add(tx, Topics.InitialPollProgressed, stockId, {
          stockId,
          at: new Date().toISOString(),
          fromYear: run.fromYear,
          toYear: run.toYear,
          currentYear: run.currentYear ?? run.fromYear,
          found: run.found,
        });
        log.warn({ stockId, runId: run.runId }, 'stalled initial poll handed back to the pollers');
      }
      return stalled.length;
    });
  }
}
