import { createLogger, SERVICE_CONFIG, SingletonJobs } from '@irp/platform';
import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import type { ReportsConfig } from '../config';
import { ReportsRepository } from './reports.repository';

const log = createLogger('reports');

export const PRUNE_REGENERATIONS_JOB = 'reports:prune-regenerations';

/** Deletes the public regenerations past their expiry (a singleton job: one instance runs it). */
@Injectable()
export class PruneRegenerations implements OnModuleInit {
  constructor(
    private readonly jobs: SingletonJobs,
    private readonly reports: ReportsRepository,
    @Inject(SERVICE_CONFIG) private readonly config: Pick<ReportsConfig, 'REPORT_PRUNE_INTERVAL_MS'>,
  ) {}

  onModuleInit() {
    this.jobs.register({
      name: PRUNE_REGENERATIONS_JOB,
      intervalMs: this.config.REPORT_PRUNE_INTERVAL_MS,
      run: async () => {
        await this.run();
      },
    });
  }

  async run(): Promise<number> {
    const pruned = await this.reports.pruneExpired();
    if (pruned) log.info({ pruned }, 'expired public report regenerations deleted');
    return pruned;
  }
}
