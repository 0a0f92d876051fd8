import { AppError, createLogger, errorText, UnitOfWork } from '@irp/platform';
import { isAdmin, type Actor, type Reconcile } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { AnnouncementStore } from '../ingestion/announcement-store';
import { SourceProvider } from '../ingestion/source-provider';
import type { StockProjectionEntity } from '../stocks/stock-projection.entity';
import { toReconcile } from './reconcile-rules';
import { ReconcileWork } from './reconcile-work';
import { ReconcilesRepository } from './reconciles.repository';

const log = createLogger('reconcile');

/** Applying a completed reconcile: its findings stored with origin 'reconcile' (never sent automatically). */
@Injectable()
export class ApplyReconcile {
  constructor(
    private readonly runs: ReconcilesRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly sources: SourceProvider,
    private readonly store: AnnouncementStore,
    private readonly work: ReconcileWork,
  ) {}

  /**
   * Stores a completed run's findings and marks it applied, in one transaction with the run's row locked,
   * so a second apply waits and is refused. The documents are fetched afterwards, in the background (the
   * reply does not wait for them).
   */
  async apply(actor: Actor, id: string): Promise<Reconcile> {
    if (!isAdmin(actor)) throw new AppError('FORBIDDEN', 'Only admins may apply a reconcile');
    const { row, stocks } = await this.unitOfWork.run(async (tx) => {
      const run = await this.runs.lock(tx, id);
      if (!run) throw new AppError('NOT_FOUND', `Reconcile ${id} not found`);
      if (run.status === 'applied')
        throw new AppError('BAD_REQUEST', 'This reconcile has already been applied');
      if (run.status !== 'completed')
        throw new AppError(
          'BAD_REQUEST',
          `Only a completed reconcile can be applied; this one is ${run.status}`,
        );
      let applied = 0;
      const touched: StockProjectionEntity[] = [];
      for (const finding of run.findings) {
        const stock = await this.runs.stock(tx, finding.stockId);
        if (!stock) continue; // gone from the projection since the run
        const stored = await this.store.storeDetected(stock, finding.items, 'reconcile', tx);
        applied += stored.length;
        if (stored.length) touched.push(stock);
      }
      await this.runs.markApplied(tx, id, applied);
      return { row: await this.runs.findOrFail(id, tx), stocks: touched };
    });
    log.info({ id, applied: row.applied, by: actor.username }, 'reconcile applied');
    if (stocks.length) this.work.track(`apply:${id}`, this.downloadFor(stocks));
    return toReconcile(row);
  }

  private async downloadFor(stocks: readonly StockProjectionEntity[]): Promise<void> {
    try {
      const source = await this.sources.get();
      for (const stock of stocks) {
        if (this.work.stopping) return;
        await this.store.downloadPending(stock, source);
      }
    } catch (err) {
      // What is left pending is fetched at the stock's next poll.
      log.warn({ err: errorText(err) }, 'downloads after a reconcile apply stopped');
    }
  }
}
