import type { Tx } from '@irp/platform';
import { Topics } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { StockProjectionEntity } from '../stocks/stock-projection.entity';
import { InitialPollEntity } from './initial-poll.entity';

/** A running run without a sign of life for this long is taken to be lost (its message gone) and redone. */
export const STALLED_AFTER = '10 minutes';

/**
 * A running run's last sign of life: its start or its latest `initial-poll.progressed`, which the outbox
 * keeps (for OUTBOX_RETENTION_DAYS) with the time it was written. `p` is the initial_polls row.
 */
const lastSignOfLife = `GREATEST(p.started_at, (
  SELECT max(o.created_at) FROM announcements.outbox o
  WHERE o.topic = '${Topics.InitialPollProgressed}' AND o.key = p.stock_id::text))`;

/** The run a change applies to: a change of a run that is no longer the stock's changes nothing. */
export interface RunKey {
  stockId: string;
  runId: string;
}

/** The initial_polls table: one row per stock, its latest run. */
@Injectable()
export class InitialPollsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async forget(stockId: string): Promise<void> {
    await this.dataSource.getRepository(InitialPollEntity).delete({ stockId });
  }

  async statuses(stockIds: readonly string[]): Promise<Array<Pick<InitialPollEntity, 'stockId' | 'status'>>> {
    return this.dataSource.query(
      `SELECT stock_id AS "stockId", status FROM announcements.initial_polls WHERE stock_id = ANY($1::uuid[])`,
      [stockIds],
    );
  }

  find(stockId: string): Promise<InitialPollEntity | null> {
    return this.dataSource.getRepository(InitialPollEntity).findOne({ where: { stockId } });
  }

  findOrFail(tx: Tx, stockId: string): Promise<InitialPollEntity> {
    return tx.getRepository(InitialPollEntity).findOneByOrFail({ stockId });
  }

  stock(stockId: string): Promise<StockProjectionEntity | null> {
    return this.dataSource.getRepository(StockProjectionEntity).findOne({ where: { id: stockId } });
  }

  /**
   * Starts a run under the row's lock, in one statement: with `supersede` always, else when the stock has
   * none, its run stalled, or its run failed before `stockUpdatedAt`. False when none was started.
   */
  async startRun(
    tx: Tx,
    stockId: string,
    window: { fromYear: number; toYear: number },
    supersede: boolean,
    stockUpdatedAt: Date,
  ): Promise<boolean> {
    const rows: unknown[] = await tx.query(
      `INSERT INTO announcements.initial_polls AS p
           (stock_id, run_id, status, from_year, to_year, current_year, found, started_at, completed_at, error)
         VALUES ($1, $2, 'running', $3, $4, NULL, 0, now(), NULL, NULL)
         ON CONFLICT (stock_id) DO UPDATE SET
           run_id = EXCLUDED.run_id, status = 'running', from_year = EXCLUDED.from_year, to_year = EXCLUDED.to_year,
           current_year = NULL, found = 0, started_at = now(), completed_at = NULL, error = NULL
         WHERE $5::boolean
            OR (p.status = 'running' AND ${lastSignOfLife} < now() - interval '${STALLED_AFTER}')
            OR (p.status = 'failed' AND p.completed_at < $6::timestamptz)
         RETURNING stock_id`,
      [stockId, randomUUID(), window.fromYear, window.toYear, supersede, stockUpdatedAt],
    );
    return rows.length > 0;
  }

  /** Shows the year being read (never moving back). */
  async reading(run: RunKey, year: number): Promise<void> {
    await this.dataSource.query(
      `UPDATE announcements.initial_polls SET current_year = $3
         WHERE stock_id = $1 AND run_id = $2 AND status = 'running' AND (current_year IS NULL OR current_year < $3)`,
      [run.stockId, run.runId, year],
    );
  }

  /** Records a finished year; undefined when the run is no longer the stock's running one. */
  async yearRead(
    tx: Tx,
    run: RunKey,
    year: number,
    stored: number,
  ): Promise<{ found: number; from_year: number; to_year: number } | undefined> {
    const rows: Array<{ found: number; from_year: number; to_year: number }> = (
      await tx.query(
        `UPDATE announcements.initial_polls SET current_year = $3, found = found + $4
           WHERE stock_id = $1 AND run_id = $2 AND status = 'running'
           RETURNING found, from_year, to_year`,
        [run.stockId, run.runId, year, stored],
      )
    )[0];
    return rows[0];
  }

  /** Completes the run; undefined when it is no longer the stock's running one. */
  async completeRun(run: RunKey): Promise<{ found: number } | undefined> {
    const rows: Array<{ found: number }> = (
      await this.dataSource.query(
        `UPDATE announcements.initial_polls SET status = 'completed', completed_at = now(), current_year = to_year
         WHERE stock_id = $1 AND run_id = $2 AND status = 'running'
         RETURNING found`,
        [run.stockId, run.runId],
      )
    )[0];
    return rows[0];
  }

  /** Fails the run; false when it is no longer the stock's running one. */
  async failRun(tx: Tx, run: RunKey, error: string): Promise<boolean> {
    const rows: unknown[] = (
      await tx.query(
        `UPDATE announcements.initial_polls SET status = 'failed', completed_at = now(), error = $3
           WHERE stock_id = $1 AND run_id = $2 AND status = 'running'
           RETURNING stock_id`,
        [run.stockId, run.runId, error],
      )
    )[0];
    return rows.length > 0;
  }

  async save(run: InitialPollEntity): Promise<void> {
    await this.dataSource.getRepository(InitialPollEntity).save(run);
  }

  /** Running runs without a sign of life for STALLED_AFTER, locked (skipping those another instance holds). */
  async lockStalled(
    tx: Tx,
  ): Promise<Array<Pick<InitialPollEntity, 'stockId'> & Pick<StockProjectionEntity, 'ticker'>>> {
    return tx.query(
      `SELECT p.stock_id AS "stockId", s.ticker FROM announcements.initial_polls p
         JOIN announcements.stocks s ON s.id = p.stock_id
         WHERE p.status = 'running' AND ${lastSignOfLife} < now() - interval '${STALLED_AFTER}'
         FOR UPDATE OF p SKIP LOCKED`,
    );
  }
}
