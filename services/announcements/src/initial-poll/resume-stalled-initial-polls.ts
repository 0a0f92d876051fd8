import { createLogger, Outbox, UnitOfWork } from '@irp/platform';
import { Topics } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { InitialPollsRepository } from './initial-polls.repository';
import { requestRun } from './start-initial-poll';

const log = createLogger('initial-poll');

/** The scheduler's help for runs whose request was lost. */
@Injectable()
export class ResumeStalledInitialPolls {
  constructor(
    private readonly runs: InitialPollsRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly outbox: Outbox,
  ) {}

  /**
   * Hands runs that show no sign of life for STALLED_AFTER (their request was lost: a poller's handler gave
   * up) back to the pollers with the same runId, so they resume where the row says. The progress published
   * with it counts as a sign of life, so a run is handed back once per STALLED_AFTER, not every tick.
   */
  async resume(): Promise<number> {
    return this.unitOfWork.run(async (tx) => {
      const stalled = await this.runs.lockStalled(tx);
      for (const { stockId, ticker } of stalled) {
        const run = await this.runs.findOrFail(tx, stockId);
        await requestRun(this.outbox, tx, run, ticker);
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
