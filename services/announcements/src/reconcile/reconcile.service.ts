import {
  AppError,
  createLogger,
  errorText,
  mapLimit,
  postgresJobLock,
  SERVICE_CONFIG,
  UnitOfWork,
  type JobLock,
  type ServiceConfigBase,
  withTimeout,
} from '@irp/platform';
import { isAdmin, type Actor, type Reconcile } from '@irp/proto';
import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { AnnouncementsConfig } from '../config';
import { AnnouncementStore } from '../ingestion/announcement-store';
import { releasedWithin } from '../ingestion/poll-rules';
import { withSourceRetries } from '../sources/source-retries';
import { SourceProvider } from '../ingestion/source-provider';
import type { StockProjectionEntity } from '../stocks/stock-projection.entity';
import { missingItems, sortedFindings, toReconcile } from './reconcile-rules';
import type { ReconcileEntity, ReconcileFinding } from './reconcile.entity';
import { ReconcilesRepository } from './reconciles.repository';

const log = createLogger('reconcile');

/** Progress is written after every this many stocks: the screen polls it, the database is spared. */
const PROGRESS_EVERY = 5;

export const INTERRUPTED = 'interrupted by a restart';

/** The advisory lock a process holds while it runs a reconcile: free means its process is gone. */
const lockName = (id: string) => `reconcile:${id}`;

/**
 * Reconcile (spec section 3): per polled stock, what the source lists for the last N days that is not
 * stored here. A run works in the background of the api instance that started it, holding an advisory lock
 * on a connection of its own, so any instance can tell a run whose process died (lock free) from one still
 * working. Applying stores the findings with origin 'reconcile' (never sent automatically).
 */
@Injectable()
export class ReconcileService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly working = new Map<string, Promise<void>>();
  private stopping = false;

  constructor(
    private readonly runs: ReconcilesRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly sources: SourceProvider,
    private readonly store: AnnouncementStore,
    @Inject(SERVICE_CONFIG) private readonly config: AnnouncementsConfig & ServiceConfigBase,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    try {
      const failed = await this.failInterrupted();
      if (failed) log.warn({ failed }, 'reconcile runs of a stopped process marked failed');
    } catch (err) {
      log.error({ err: errorText(err) }, 'checking for interrupted reconcile runs failed');
    }
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopping = true;
    await Promise.allSettled(this.working.values());
  }

  /** Starts a run of the last `numDays` days; answers at once with the new run (status running). */
  async run(actor: Actor, numDays: number): Promise<Reconcile> {
    if (!isAdmin(actor)) throw new AppError('FORBIDDEN', 'Only admins may run a reconcile');
    const id = randomUUID();
    // Held before the row exists, so no instance ever sees this run without its holder.
    const lock = await postgresJobLock(
      this.config.DATABASE_URL,
      lockName(id),
      `announcements:${this.config.INSTANCE_ID}`,
    )();
    try {
      if (!(await lock.tryAcquire())) throw new Error(`the lock of reconcile ${id} is taken`);
      const total = await this.runs.countPolledStocks();
      await this.runs.insert({
        id,
        numDays,
        status: 'running',
        total,
        checked: 0,
        findings: [],
        startedBy: actor.username,
      });
    } catch (error) {
      await lock.close();
      throw error;
    }
    const row = await this.runs.findOrFail(id);
    log.info({ id, numDays, total: row.total, by: actor.username }, 'reconcile started');
    const work = this.execute(row, lock).finally(() => this.working.delete(id));
    this.working.set(id, work);
    return toReconcile(row);
  }

  async get(id: string): Promise<Reconcile> {
    const row = await this.runs.find(id);
    if (!row) throw new AppError('NOT_FOUND', `Reconcile ${id} not found`);
    return toReconcile(await this.checkAlive(row));
  }

  async last(): Promise<Reconcile | null> {
    const row = await this.runs.latest();
    return row ? toReconcile(await this.checkAlive(row)) : null;
  }

  /**
   * Stores a completed run's findings (origin 'reconcile', never sent automatically) and marks it applied, in
   * one transaction with the run's row locked, so a second apply waits and is refused. The documents are
   * fetched afterwards, in the background (the reply does not wait for them).
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
    if (stocks.length) {
      const work = this.downloadFor(stocks).finally(() => this.working.delete(`apply:${id}`));
      this.working.set(`apply:${id}`, work);
    }
    return toReconcile(row);
  }

  /** Marks the running runs whose process is gone (their lock is free) failed; returns how many. */
  async failInterrupted(): Promise<number> {
    const running = await this.runs.running();
    let failed = 0;
    for (const row of running) if ((await this.checkAlive(row)).status === 'failed') failed++;
    return failed;
  }

  /** The row as it is, or marked failed when it says running but nobody runs it any more. */
  private async checkAlive(row: ReconcileEntity): Promise<ReconcileEntity> {
    if (row.status !== 'running' || this.working.has(row.id)) return row;
    const marked = await this.unitOfWork.run((tx) =>
      this.runs.failIfLockFree(tx, row.id, lockName(row.id), INTERRUPTED),
    );
    return marked ? this.runs.findOrFail(row.id) : row;
  }

  private async execute(run: ReconcileEntity, lock: JobLock): Promise<void> {
    const now = new Date();
    const findings: ReconcileFinding[] = [];
    let checked = 0;
    try {
      const stocks = await this.runs.polledStocks();
      const source = await this.sources.get();
      await mapLimit(stocks, this.config.POLL_CONCURRENCY, async (stock) => {
        if (this.stopping) throw new Error(INTERRUPTED);
        const items = await withSourceRetries(() =>
          withTimeout(
            source.latest(stock.ticker),
            this.config.SOURCE_TIMEOUT_MS + 1000,
            `latest ${stock.ticker}`,
          ),
        ).catch((error: unknown) => {
          throw new Error(`${stock.ticker}: ${errorText(error)}`);
        });
        const recent = releasedWithin(items, run.numDays, now);
        if (recent.length) {
          const missing = missingItems(
            recent,
            await this.runs.storedKeys(
              stock.id,
              recent.map((i) => i.sourceKey),
            ),
          );
          if (missing.length) findings.push({ stockId: stock.id, ticker: stock.ticker, items: missing });
        }
        checked++;
        if (checked % PROGRESS_EVERY === 0)
          await this.runs.updateRunning(run.id, { checked, findings: sortedFindings(findings) });
      });
      await this.runs.updateRunning(run.id, {
        status: 'completed',
        checked,
        total: Math.max(run.total, checked),
        findings: sortedFindings(findings),
        completedAt: new Date(),
      });
      log.info({ id: run.id, checked, tickers: findings.length }, 'reconcile completed');
    } catch (error) {
      const text = errorText(error);
      log.error({ id: run.id, err: text }, 'reconcile failed');
      await this.runs
        .updateRunning(run.id, { status: 'failed', error: text, checked, completedAt: new Date() })
        .catch((err: unknown) =>
          log.error({ id: run.id, err: errorText(err) }, 'marking the reconcile failed failed'),
        );
    } finally {
      await lock.close();
    }
  }

  private async downloadFor(stocks: readonly StockProjectionEntity[]): Promise<void> {
    try {
      const source = await this.sources.get();
      for (const stock of stocks) {
        if (this.stopping) return;
        await this.store.downloadPending(stock, source);
      }
    } catch (err) {
      // What is left pending is fetched at the stock's next poll.
      log.warn({ err: errorText(err) }, 'downloads after a reconcile apply stopped');
    }
  }
}
