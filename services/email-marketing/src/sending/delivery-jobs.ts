import { SERVICE_CONFIG, SingletonJobs } from '@irp/platform';
import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import type { EmailMarketingConfig } from '../config';
import { SweepDueDeliveries } from './sweep-due-deliveries';
import { TakeOverClaims } from './take-over-claims';

/**
 * The senders' housekeeping, two singleton jobs (one instance at a time each): the takeover of a dead
 * sender's claims, every CLAIM_TAKEOVER_INTERVAL_MS (1 s), and the sweep, every SWEEP_INTERVAL_MS.
 */
@Injectable()
export class DeliveryJobs implements OnModuleInit {
  constructor(
    private readonly jobs: SingletonJobs,
    private readonly sweep: SweepDueDeliveries,
    private readonly takeover: TakeOverClaims,
    @Inject(SERVICE_CONFIG) private readonly config: EmailMarketingConfig,
  ) {}

  onModuleInit() {
    this.jobs.register({
      name: 'email-marketing:delivery-sweeper',
      intervalMs: this.config.SWEEP_INTERVAL_MS,
      run: () => this.sweep.run().then(() => undefined),
    });
    this.jobs.register({
      name: 'email-marketing:claim-takeover',
      intervalMs: this.config.CLAIM_TAKEOVER_INTERVAL_MS,
      run: () => this.takeover.run().then(() => undefined),
    });
  }
}
