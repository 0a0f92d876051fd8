import {
  AppError,
  createLogger,
  errorText,
  mapLimit,
  postgresJobLock,
  SERVICE_CONFIG,
  type JobLock,
  type ServiceConfigBase,
  withTimeout,
} from '@irp/platform';
import { isAdmin, type Actor, type Reconcile } from '@irp/proto';
import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { AnnouncementsConfig } from '../config';
import { releasedWithin } from '../ingestion/poll-rules';
import { SourceProvider } from '../ingestion/source-provider';
import { withSourceRetries } from '../sources/source-retries';
import { missingItems, sortedFindings, toReconcile } from './reconcile-rules';
import { INTERRUPTED, lockName, ReconcileWork } from './reconcile-work';
import type { ReconcileEntity, ReconcileFinding } from './reconcile.entity';
import { ReconcilesRepository } from './reconciles.repository';

const log = createLogger('reconcile');

/** Progress is written after every this many stocks: the screen polls it, the database is spared. */
const PROGRESS_EVERY = 5;

/**
 * Reconcile (spec section 3): per polled stock, what the source lists for the last N days that is not
 * stored here. A run works in the background of the api instance that started it, holding an advisory lock
 * on a connection of its own, so any instance can tell a run whose process died (lock free) from one still
 * working.
 */
@Injectable()
export class RunReconcile {
  constructor(
    private readonly runs: ReconcilesRepository,
    private readonly sources: SourceProvider,
    private readonly work: ReconcileWork,
    @Inject(SERVICE_CONFIG) private readonly config: AnnouncementsConfig & ServiceConfigBase,
  ) {}

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
    this.work.track(id, this.execute(row, lock));
    return toReconcile(row);
  }

  private async execute(run: ReconcileEntity, lock: JobLock): Promise<void> {
    const now = new Date();
    const findings: ReconcileFinding[] = [];
    let checked = 0;
    try {
      const stocks = await this.runs.polledStocks();
      const source = await this.sources.get();
      await mapLimit(stocks, this.config.POLL_CONCURRENCY, async (stock) => {
        if (this.work.stopping) throw new Error(INTERRUPTED);
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
}
