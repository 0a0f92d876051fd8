import { Injectable, OnApplicationShutdown } from '@nestjs/common';

export const INTERRUPTED = 'interrupted by a restart';

/** The advisory lock a process holds while it runs a reconcile: free means its process is gone. */
export const lockName = (id: string) => `reconcile:${id}`;

/**
 * The reconcile work this process does in the background (runs, and the downloads after an apply): a run
 * it holds is alive without asking its lock, and a shutdown stops the work and waits for it.
 */
@Injectable()
export class ReconcileWork implements OnApplicationShutdown {
  private readonly working = new Map<string, Promise<void>>();
  private stoppingNow = false;

  /** Keeps `work` under `key` until it settles. */
  track(key: string, work: Promise<void>): void {
    this.working.set(
      key,
      work.finally(() => this.working.delete(key)),
    );
  }

  has(key: string): boolean {
    return this.working.has(key);
  }

  /** Whether the process is shutting down: the work stops at its next step. */
  get stopping(): boolean {
    return this.stoppingNow;
  }

  async onApplicationShutdown(): Promise<void> {
    this.stoppingNow = true;
    await Promise.allSettled(this.working.values());
  }
}
