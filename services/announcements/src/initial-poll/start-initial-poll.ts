import { createLogger, Outbox, UnitOfWork, type Tx } from '@irp/platform';
import { Topics } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { initialPollWindow } from '../ingestion/poll-rules';
import type { StockProjectionEntity } from '../stocks/stock-projection.entity';
import type { InitialPollEntity } from './initial-poll.entity';
import { InitialPollsRepository } from './initial-polls.repository';

const log = createLogger('initial-poll');

/** Asks the pollers for a run (a start, or a stalled run handed back): `initial-poll.requested`, in `tx`. */
export function requestRun(outbox: Outbox, tx: Tx, run: InitialPollEntity, ticker: string): Promise<void> {
  return outbox.add(tx, Topics.InitialPollRequested, run.stockId, {
    stockId: run.stockId,
    runId: run.runId,
    ticker,
    fromYear: run.fromYear,
    toYear: run.toYear,
  });
}

/**
 * Starts an initial poll (spec section 3): every announcement of a stock from its announcementStartYear to
 * this year, read year by year by a poller (RunInitialPoll), stored once, never sent automatically. One
 * row per stock (initial_polls) holds the latest run; a new run gets a new runId and the work of older runs
 * is ignored.
 */
@Injectable()
export class StartInitialPoll {
  constructor(
    private readonly runs: InitialPollsRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly outbox: Outbox,
  ) {}

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
      await requestRun(this.outbox, tx, run, stock.ticker);
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
}
