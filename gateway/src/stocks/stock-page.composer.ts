import { ANNOUNCEMENT_PAGE_SIZE, AdminStockPage, LatestInitialPoll, SessionUser, Topics } from '@irp/proto';
import { createLogger } from '@irp/platform';
import { Inject, Injectable, Optional } from '@nestjs/common';
import { AnnouncementDeliveries } from '../announcements/announcement-deliveries';
import { askContributor, askContributors, AskOptions, unavailableOf } from '../common/contributors';
import { GATEWAY_CONFIG, GatewayConfig } from '../config';
import { ServicesClient } from '../kafka/services.client';
import {
  STOCK_PAGE_CONTRIBUTORS,
  StockPageContribution,
  StockPageContributor,
} from './stock-page-contributor';

const log = createLogger('stock-page');

/** What the admin stock page adds to the stock: its announcements, or null and the reason. */
export type StockPageParts = Pick<
  AdminStockPage,
  'announcements' | 'announcementsNext' | 'initialPoll' | 'unavailable'
>;

export const ANNOUNCEMENTS_CONTRIBUTOR = 'announcements';

/** The page's own part from the announcements service, asked with the caller as actor (not registered). */
const ANNOUNCEMENTS = { name: ANNOUNCEMENTS_CONTRIBUTOR } as const;

/** The stock's latest initial poll as the page's announcements part tells it (for completedInitialPoll). */
export const latestInitialPollOf = (parts: StockPageParts): LatestInitialPoll =>
  parts.unavailable.includes(ANNOUNCEMENTS_CONTRIBUTOR) ? 'unknown' : (parts.initialPoll?.status ?? 'none');

/**
 * Composes the admin stock page (GET /api/stock/{combinedTicker}) like the dashboards (ADR 0004): the
 * stock from the stocks service, its announcements and latest initial poll from the announcements
 * service. That part is asked within STOCK_PAGE_CONTRIBUTOR_TIMEOUT_MS (askContributor, as the dashboards
 * ask theirs); when it fails or is slower, the page still answers, with `announcements: null,
 * initialPoll: null` and 'announcements' in `unavailable` (the Config tab is worth more than an error page).
 */
@Injectable()
export class StockPageComposer {
  constructor(
    private readonly services: ServicesClient,
    private readonly deliveries: AnnouncementDeliveries,
    @Inject(GATEWAY_CONFIG) private readonly config: Pick<GatewayConfig, 'STOCK_PAGE_CONTRIBUTOR_TIMEOUT_MS'>,
    @Optional()
    @Inject(STOCK_PAGE_CONTRIBUTORS)
    private readonly contributors: readonly StockPageContributor[] = [],
  ) {}

  /**
   * The registered contributors' parts of a stock's page (stock-page-contributors.module.ts), each within
   * STOCK_PAGE_CONTRIBUTOR_TIMEOUT_MS; one that fails or is slower gives its empty part and is named in
   * `unavailable`. Never rejects.
   */
  async contributionsOf(
    combinedTicker: string,
  ): Promise<{ fields: StockPageContribution; unavailable: string[] }> {
    const results = await askContributors(
      this.contributors,
      (contributor, deadlineMs) => contributor.contribute(combinedTicker, deadlineMs),
      this.asking(combinedTicker, 'stock page part unavailable'),
    );
    return {
      fields: Object.assign(
        {},
        ...results.map((r) => (r.ok ? r.value : r.contributor.empty)),
      ) as StockPageContribution,
      unavailable: unavailableOf(results),
    };
  }

  /**
   * The announcements part of a stock's page (the newest ANNOUNCEMENT_PAGE_SIZE, and where the older ones
   * continue), each with who was mailed it (the email-marketing service's,
   * asked once the announcements are known; when it does not answer they show as not mailed and
   * 'email-marketing' is in `unavailable`). Never rejects, so it can be started beside the stock's own
   * request and awaited after it.
   */
  async announcementsOf(actor: SessionUser, combinedTicker: string): Promise<StockPageParts> {
    const result = await askContributor(
      ANNOUNCEMENTS,
      (_, deadlineMs) =>
        this.services.request(
          Topics.AnnouncementsList,
          { actor, combinedTicker, includeDeleted: true, limit: ANNOUNCEMENT_PAGE_SIZE },
          deadlineMs,
        ),
      this.asking(combinedTicker, 'stock page announcements unavailable'),
    );
    if (!result.ok)
      return {
        announcements: null,
        announcementsNext: null,
        initialPoll: null,
        unavailable: [ANNOUNCEMENTS.name],
      };
    const { announcements, unavailable } = await this.deliveries.of(result.value.announcements);
    return {
      announcements,
      announcementsNext: result.value.next,
      initialPoll: result.value.initialPoll,
      unavailable,
    };
  }

  private asking(combinedTicker: string, message: string): AskOptions {
    return {
      deadlineMs: this.config.STOCK_PAGE_CONTRIBUTOR_TIMEOUT_MS,
      log,
      message,
      context: { combinedTicker },
    };
  }
}
