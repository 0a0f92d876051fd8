import {
  createLogger,
  errorText,
  ProjectionBootstrap,
  SERVICE_CONFIG,
  ServiceConfigBase,
  SingletonJobs,
} from '@irp/platform';
import { Topics } from '@irp/proto';
import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  OnApplicationShutdown,
  OnModuleInit,
} from '@nestjs/common';
import { StockProjectionService } from '../stocks/stock-projection.repository';
import { AnnouncementProjectionRepository } from './announcement-projection.repository';

const log = createLogger('announcement-projection');

export const ANNOUNCEMENT_PROJECTION_JOB = 'reports:announcement-projection';
/** Drift repair: edits and deletes of announcements publish no event. */
const INTERVAL_MS = 15 * 60_000;
/** How far back: a report spans at most a year, its pre-release baseline reaches some weeks before. */
const DAYS_BACK = 2 * 366;
/** Stocks per request (the request's limit). */
const BATCH = 500;

/**
 * Fills the announcement days from the announcements service (`announcements.headlines`): at start, every
 * 15 minutes on one instance, and soon after a stock is new to this service. `announcement.detected` keeps
 * the table current, but this service's consumer group joined at the topic's latest offset: announcements
 * stored before it first ran (make up's two years of demo announcements), and edits and deletes, come from
 * here. Idempotent by announcement id.
 */
@Injectable()
export class AnnouncementProjectionBootstrap
  implements OnModuleInit, BeforeApplicationShutdown, OnApplicationShutdown
{
  private readonly bootstrap: ProjectionBootstrap;
  private soon?: NodeJS.Timeout;

  constructor(
    private readonly jobs: SingletonJobs,
    private readonly stocks: StockProjectionService,
    private readonly announcements: AnnouncementProjectionRepository,
    @Inject(SERVICE_CONFIG) config: ServiceConfigBase,
  ) {
    this.bootstrap = new ProjectionBootstrap(config, {
      job: ANNOUNCEMENT_PROJECTION_JOB,
      client: 'reports-announcement-projection',
      topics: [Topics.AnnouncementsHeadlines],
      intervalMs: INTERVAL_MS,
      timeoutMs: 30_000,
      check: async (requester) => {
        const ids = await this.stocks.ids();
        const since = new Date(Date.now() - DAYS_BACK * 86_400_000).toISOString();
        let applied = 0;
        for (let i = 0; i < ids.length; i += BATCH) {
          const { announcements } = await requester.request(Topics.AnnouncementsHeadlines, {
            stockIds: ids.slice(i, i + BATCH),
            since,
          });
          applied += await this.announcements.apply(announcements);
        }
        log.info(
          { stocks: ids.length, applied },
          'announcement days checked against the announcements service',
        );
      },
    });
  }

  onModuleInit() {
    this.bootstrap.register(this.jobs);
    // A stock new to this service (its projection filled after the first check) gets its days soon.
    this.stocks.onStockChanged(() => {
      clearTimeout(this.soon);
      this.soon = setTimeout(() => {
        this.run().catch((err: unknown) =>
          log.warn({ err: errorText(err) }, 'announcement days not read; the job tries again'),
        );
      }, 2000);
      this.soon.unref();
    });
  }

  /** One check now. */
  run(): Promise<void> {
    return this.bootstrap.run();
  }

  beforeApplicationShutdown() {
    clearTimeout(this.soon);
    this.bootstrap.stop();
  }

  async onApplicationShutdown() {
    await this.bootstrap.close();
  }
}
