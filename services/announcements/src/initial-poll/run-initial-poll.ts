import { createLogger, errorText, Outbox, SERVICE_CONFIG, UnitOfWork, withTimeout } from '@irp/platform';
import { Topics, type InitialPollRequestedEvent } from '@irp/proto';
import { Inject, Injectable } from '@nestjs/common';
import type { AnnouncementsConfig } from '../config';
import { ErrorReporter } from '../error-reports/error-reporter';
import { AnnouncementStore } from '../ingestion/announcement-store';
import { yearsToRead } from '../ingestion/poll-rules';
import { SourceProvider } from '../ingestion/source-provider';
import type { AnnouncementSource, SourceAnnouncement } from '../sources/source';
import { withSourceRetries } from '../sources/source-retries';
import type { StockProjectionEntity } from '../stocks/stock-projection.entity';
import { InitialPollReads } from './initial-poll-reads';
import { InitialPollsRepository } from './initial-polls.repository';

const log = createLogger('initial-poll');

type RunRef = Pick<InitialPollRequestedEvent, 'stockId' | 'runId'>;

/** A requested initial poll (or resync), read on a poller. */
@Injectable()
export class RunInitialPoll {
  constructor(
    private readonly runs: InitialPollsRepository,
    private readonly reads: InitialPollReads,
    private readonly unitOfWork: UnitOfWork,
    private readonly outbox: Outbox,
    private readonly store: AnnouncementStore,
    private readonly sources: SourceProvider,
    private readonly reporter: ErrorReporter,
    @Inject(SERVICE_CONFIG) private readonly config: AnnouncementsConfig,
  ) {}

  /**
   * Runs (or resumes) a requested run: each year from the one it was reading (or its first) to its last,
   * stored with origin 'initial-poll', documents fetched, progress published; then completed. A request of
   * a superseded run is ignored; a source that keeps failing fails the run and reports it. A database
   * outage is ridden out by the platform's handler retry policy: the retried run resumes at the year its
   * row says.
   */
  async run(event: InitialPollRequestedEvent): Promise<void> {
    const row = await this.reads.progressOf(event.stockId);
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
}
