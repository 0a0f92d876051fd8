import { AppError, createLogger, errorText, UnitOfWork } from '@irp/platform';
import type { Reconcile } from '@irp/proto';
import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { toReconcile } from './reconcile-rules';
import { INTERRUPTED, lockName, ReconcileWork } from './reconcile-work';
import type { ReconcileEntity } from './reconcile.entity';
import { ReconcilesRepository } from './reconciles.repository';

const log = createLogger('reconcile');

/**
 * A reconcile run as the screen reads it. A run that says running while nobody runs it any more (its
 * process died: its advisory lock is free) is marked failed when read, and at start.
 */
@Injectable()
export class ReconcileReads implements OnApplicationBootstrap {
  constructor(
    private readonly runs: ReconcilesRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly work: ReconcileWork,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    try {
      const failed = await this.failInterrupted();
      if (failed) log.warn({ failed }, 'reconcile runs of a stopped process marked failed');
    } catch (err) {
      log.error({ err: errorText(err) }, 'checking for interrupted reconcile runs failed');
    }
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

  /** Marks the running runs whose process is gone (their lock is free) failed; returns how many. */
  async failInterrupted(): Promise<number> {
    const running = await this.runs.running();
    let failed = 0;
    for (const row of running) if ((await this.checkAlive(row)).status === 'failed') failed++;
    return failed;
  }

  /** The row as it is, or marked failed when it says running but nobody runs it any more. */
  private async checkAlive(row: ReconcileEntity): Promise<ReconcileEntity> {
    if (row.status !== 'running' || this.work.has(row.id)) return row;
    const marked = await this.unitOfWork.run((tx) =>
      this.runs.failIfLockFree(tx, row.id, lockName(row.id), INTERRUPTED),
    );
    return marked ? this.runs.findOrFail(row.id) : row;
  }
}
