import type { Tx } from '@irp/platform';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { SourceHealthEntity } from './source-health.entity';

/** A source's streak after one more failure. */
export interface FailureStreak {
  failure_streak: number;
  first_failure_at: Date;
  reported_at: Date | null;
}

/** The last state of a source, read before a success is written. */
export interface SourceState {
  failure_streak: number;
  reported_at: Date | null;
  recent: boolean;
}

/** The source_health table: one row per announcement source; the only place that queries it. */
@Injectable()
export class SourceHealthRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Counts one failure; the upsert takes the row lock, so concurrent failures count one after the other. */
  async countFailure(tx: Tx, source: string, error: string): Promise<FailureStreak> {
    const [row] = (await tx.query(
      `INSERT INTO announcements.source_health AS h (source, failure_streak, first_failure_at, last_error)
         VALUES ($1, 1, now(), $2)
         ON CONFLICT (source) DO UPDATE SET
           failure_streak = h.failure_streak + 1,
           first_failure_at = COALESCE(h.first_failure_at, now()),
           last_error = EXCLUDED.last_error
         RETURNING failure_streak, first_failure_at, reported_at`,
      [source, error],
    )) as FailureStreak[];
    return row;
  }

  async markReported(tx: Tx, source: string): Promise<void> {
    await tx.update(SourceHealthEntity, { source }, { reportedAt: new Date() });
  }

  /** The source's row, read without a lock (undefined before its first poll). */
  async state(source: string): Promise<SourceState | undefined> {
    const [row] = (await this.dataSource.query(
      `SELECT failure_streak, reported_at, last_success_at > now() - interval '1 minute' AS recent
       FROM announcements.source_health WHERE source = $1`,
      [source],
    )) as SourceState[];
    return row;
  }

  /** Ends the streak and records the success. */
  async recordSuccess(source: string): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO announcements.source_health (source, failure_streak, last_success_at)
       VALUES ($1, 0, now())
       ON CONFLICT (source) DO UPDATE SET
         failure_streak = 0, first_failure_at = NULL, last_error = NULL, reported_at = NULL, last_success_at = now()`,
      [source],
    );
  }
}
