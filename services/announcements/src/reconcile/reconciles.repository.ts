import { singletonJobKey, type Tx } from '@irp/platform';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { polledStocksWhere } from '../ingestion/poll-rules';
import { StockProjectionEntity } from '../stocks/stock-projection.entity';
import type { AnnouncementEntity } from '../stored-announcements/announcement.entity';
import { ReconcileEntity } from './reconcile.entity';

/** The reconciles table, and what a run reads of the stocks and the announcements stored. */
@Injectable()
export class ReconcilesRepository {
  constructor(private readonly dataSource: DataSource) {}

  private get repo() {
    return this.dataSource.getRepository(ReconcileEntity);
  }

  async countPolledStocks(): Promise<number> {
    const [{ total }] = (await this.dataSource.query(
      `SELECT count(*)::int AS total FROM announcements.stocks s WHERE ${polledStocksWhere('s')}`,
    )) as Array<{ total: number }>;
    return total;
  }

  async polledStocks(): Promise<Array<{ id: string; ticker: string }>> {
    return this.dataSource.query(
      `SELECT s.id, s.ticker FROM announcements.stocks s WHERE ${polledStocksWhere('s')} ORDER BY s.ticker, s.id`,
    );
  }

  /** Which of `sourceKeys` the stock has stored. */
  async storedKeys(stockId: string, sourceKeys: string[]): Promise<Set<string>> {
    const stored: Array<Pick<AnnouncementEntity, 'sourceKey'>> = await this.dataSource.query(
      `SELECT source_key AS "sourceKey" FROM announcements.announcements
       WHERE stock_id = $1 AND source_key = ANY($2::text[])`,
      [stockId, sourceKeys],
    );
    return new Set(stored.map((s) => s.sourceKey));
  }

  async insert(row: Partial<ReconcileEntity>): Promise<void> {
    await this.repo.insert(row);
  }

  find(id: string): Promise<ReconcileEntity | null> {
    return this.repo.findOneBy({ id });
  }

  findOrFail(id: string, tx?: Tx): Promise<ReconcileEntity> {
    return (tx ? tx.getRepository(ReconcileEntity) : this.repo).findOneByOrFail({ id });
  }

  async latest(): Promise<ReconcileEntity | undefined> {
    const [row] = await this.repo.find({ order: { startedAt: 'DESC' }, take: 1 });
    return row;
  }

  running(): Promise<ReconcileEntity[]> {
    return this.repo.find({ where: { status: 'running' } });
  }

  /** The run's row, locked: a second apply waits for the first. */
  lock(tx: Tx, id: string): Promise<ReconcileEntity | null> {
    return tx.getRepository(ReconcileEntity).findOne({ where: { id }, lock: { mode: 'pessimistic_write' } });
  }

  stock(tx: Tx, id: string): Promise<StockProjectionEntity | null> {
    return tx.getRepository(StockProjectionEntity).findOneBy({ id });
  }

  async markApplied(tx: Tx, id: string, applied: number): Promise<void> {
    await tx.update(ReconcileEntity, { id }, { status: 'applied', applied });
  }

  /** Changes a run only while it is running. */
  async updateRunning(id: string, values: Partial<ReconcileEntity>): Promise<void> {
    await this.repo.update({ id, status: 'running' }, values);
  }

  /**
   * Marks a running run failed with `error` when its process is gone: the advisory lock `lockName` is free.
   * A transaction-level try: it is released at commit, so checking never keeps anyone's lock.
   */
  async failIfLockFree(tx: Tx, id: string, lockName: string, error: string): Promise<boolean> {
    const [{ free }] = (await tx.query(`SELECT pg_try_advisory_xact_lock($1::bigint) AS free`, [
      singletonJobKey(lockName),
    ])) as Array<{ free: boolean }>;
    if (!free) return false;
    const [, affected] = (await tx.query(
      `UPDATE announcements.reconciles SET status = 'failed', error = $2, completed_at = now()
         WHERE id = $1 AND status = 'running'`,
      [id, error],
    )) as [unknown, number];
    return affected === 1;
  }
}
