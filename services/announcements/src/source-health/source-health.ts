import { createLogger, UnitOfWork } from '@irp/platform';
import type { ErrorReporter } from '../error-reports/error-reporter';
import { sourceCallFailures } from '../ingestion/metrics';
import { SourceHealthRepository } from './source-health.repository';

const log = createLogger('source-health');

/**
 * A source's failure streak (source_health): each poll whose source call failed after its retries counts
 * one; at `streakToReport` the error email is requested once for the streak (reported_at, set in the same
 * transaction as the report, so concurrent pollers report once); a success ends the streak.
 */
export class SourceHealth {
  constructor(
    private readonly rows: SourceHealthRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly reporter: ErrorReporter,
    private readonly streakToReport: number,
  ) {}

  async failed(source: string, error: string): Promise<void> {
    sourceCallFailures.inc({ source });
    await this.unitOfWork.run(async (tx) => {
      const row = await this.rows.countFailure(tx, source, error);
      log.warn({ source, streak: row.failure_streak, error }, 'announcement source failed');
      if (row.failure_streak < this.streakToReport || row.reported_at) return;
      await this.rows.markReported(tx, source);
      await this.reporter.report(
        `source-failing:${source}:${row.first_failure_at.toISOString()}`,
        `Announcement source ${source} is failing`,
        `The last ${row.failure_streak} polls of the ${source} announcement source failed ` +
          `(since ${row.first_failure_at.toISOString()}). Last error: ${error}. ` +
          `New announcements are not detected until it answers again.`,
        tx,
      );
    });
  }

  /**
   * Ends a streak. Written only when there is something to reset or the last success is a minute old, so
   * 2,000 successful polls a minute do not each rewrite (and lock) the row.
   */
  async succeeded(source: string): Promise<void> {
    // A read first: the upsert below locks the source's one row, which every poller of every instance
    // would otherwise queue for after each successful poll.
    const row = await this.rows.state(source);
    if (row && row.failure_streak === 0 && !row.reported_at && row.recent) return;
    await this.rows.recordSuccess(source);
    if (row?.failure_streak)
      log.info({ source, after: row.failure_streak }, 'announcement source answers again');
  }
}
