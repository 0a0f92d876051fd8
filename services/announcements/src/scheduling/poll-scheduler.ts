import { createLogger, errorText, KAFKA_PRODUCER, SERVICE_CONFIG, SingletonJobs } from '@irp/platform';
import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { Topics } from '@irp/proto';
import type { Producer } from 'kafkajs';
import type { AnnouncementsConfig } from '../config';
import { SystemSettingsService } from '../settings/system-settings.service';
import { ResumeStalledInitialPolls } from '../initial-poll/resume-stalled-initial-polls';
import { publishPollWork } from '../ingestion/poll-publisher';
import {
  isPollingDisabled,
  marketPollRequest,
  pollRequestsFor,
  type PollRequest,
} from '../ingestion/poll-rules';
import { DueStocksRepository } from './due-stocks.repository';
import { SourceProvider } from '../ingestion/source-provider';

const log = createLogger('poll-scheduler');

/** The singleton job's name: one scheduler of the service holds it at a time (docs/operations.md). */
export const POLL_SCHEDULER_JOB = 'announcements:poll-scheduler';

export interface PollTick {
  /** Poll requests published. */
  published: number;
  /** Why nothing was published, when so. */
  skipped?: 'polling-disabled' | 'no-stock-due';
  ms: number;
}

/**
 * The scheduler role: every POLL_INTERVAL_MS, on the one instance that holds the job's advisory lock,
 * publishes the poll work of every due stock (or one market-wide poll for a market-wide source), unless
 * system settings disable polling until later. It also hands stalled initial polls back to the pollers.
 */
@Injectable()
export class PollScheduler implements OnModuleInit {
  constructor(
    private readonly jobs: SingletonJobs,
    @Inject(KAFKA_PRODUCER) private readonly producer: Producer,
    private readonly dueStocks: DueStocksRepository,
    private readonly settings: SystemSettingsService,
    private readonly sources: SourceProvider,
    private readonly stalledInitialPolls: ResumeStalledInitialPolls,
    @Inject(SERVICE_CONFIG) private readonly config: AnnouncementsConfig,
  ) {}

  onModuleInit() {
    this.jobs.register({
      name: POLL_SCHEDULER_JOB,
      intervalMs: this.config.POLL_INTERVAL_MS,
      run: async () => {
        await this.tick();
        await this.stalledInitialPolls
          .resume()
          .catch((err: unknown) =>
            log.error({ err: errorText(err) }, 'resuming stalled initial polls failed'),
          );
      },
    });
  }

  /** One tick: publishes this interval's poll work. A failed send is logged by the job; the next tick redoes it. */
  async tick(now = new Date()): Promise<PollTick> {
    const started = Date.now();
    const settings = await this.settings.entity();
    if (isPollingDisabled(settings.disablePollUntil, now)) {
      log.info({ until: settings.disablePollUntil }, 'polling disabled by the system settings');
      return { published: 0, skipped: 'polling-disabled', ms: Date.now() - started };
    }
    const source = await this.sources.get();
    // A market-wide poll reads the whole market once: whether any stock is due is all its tick asks.
    let requests: PollRequest[];
    if (source.marketWide) requests = (await this.dueStocks.anyDue()) ? [marketPollRequest(now)] : [];
    else requests = pollRequestsFor(await this.dueStocks.list(), now);
    if (!requests.length) return { published: 0, skipped: 'no-stock-due', ms: Date.now() - started };
    await publishPollWork(this.producer, {
      topic: Topics.AnnouncementsPollRequested,
      kind: source.marketWide ? 'market' : 'stock',
      requests,
    });
    const ms = Date.now() - started;
    log.info({ source: source.name, published: requests.length, ms }, 'poll work published');
    return { published: requests.length, ms };
  }
}
