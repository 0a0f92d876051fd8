import { createLogger } from '@irp/platform';
import { DataSource } from 'typeorm';
import type { ErrorReporter } from '../error-reports/error-reporter';
import { sourceCallFailures } from '../polling/metrics';
import { SourceHealthEntity } from './source-health.entity';

const log = createLogger('source-health');

/**
 * A source's failure streak (source_health): each poll whose source call failed after its retries counts
 * one; at `streakToReport` the error email is requested once for the streak (reported_at, set in the same
 * transaction as the report, so concurrent pollers report once); a success ends the streak.
 */
export class SourceHealth {
  constructor(
    private readonly dataSource: DataSource,
    private readonly reporter: ErrorReporter,
    private readonly streakToReport: number,
  ) {}

  async failed(source: string, error: string): Promise<void> {
    sourceCallFailures.inc({ source });
    await this.dataSource.transaction(async (m) => {
      // The upsert takes the row lock: concurrent failures count one after the other.
      const [row] = (await m.query(
        `INSERT INTO announcements.source_health AS h (source, failure_streak, first_failure_at, last_error)
         VALUES ($1, 1, now(), $2)
         ON CONFLICT (source) DO UPDATE SET
           failure_streak = h.failure_streak + 1,
           first_failure_at = COALESCE(h.first_failure_at, now()),
           last_error = EXCLUDED.last_error
         RETURNING failure_streak, first_failure_at, reported_at`,
        [source, error],
      )) as Array<{ failure_streak: number; first_failure_at: Date; reported_at: Date | null }>;
      log.warn({ source, streak: row.failure_streak, error }, 'announcement source failed');
      if (row.failure_streak < this.streakToReport || row.reported_at) return;
      await m.update(SourceHealthEntity, { source }, { reportedAt: new Date() });
      await this.reporter.report(
        `source-failing:${source}:${row.first_failure_at.toISOString()}`,
        `Announcement source ${source} is failing`,
        `The last ${row.failure_streak} polls of the ${source} announcement source failed ` +
          `(since ${row.first_failure_at.toISOString()}). Last error: ${error}. ` +
          `New announcements are not detected until it answers again.`,
        m,
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
    const [row] = (await this.dataSource.query(
      `SELECT failure_streak, reported_at, last_success_at > now() - interval '1 minute' AS recent
       FROM announcements.source_health WHERE source = $1`,
      [source],
    )) as Array<{ failure_streak: number; reported_at: Date | null; recent: boolean }>;
    if (row && row.failure_streak === 0 && !row.reported_at && row.recent) return;
    await this.dataSource.query(
      `INSERT INTO announcements.source_health (source, failure_streak, last_success_at)
       VALUES ($1, 0, now())
       ON CONFLICT (source) DO UPDATE SET
         failure_streak = 0, first_failure_at = NULL, last_error = NULL, reported_at = NULL, last_success_at = now()`,
      [source],
    );
    if (row?.failure_streak)
      log.info({ source, after: row.failure_streak }, 'announcement source answers again');
  }
}
