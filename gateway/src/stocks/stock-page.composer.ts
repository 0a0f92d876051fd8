import { AdminStockPage, AnnouncementList, LatestInitialPoll, SessionUser, Topics } from '@irp/proto';
import { createLogger } from '@irp/platform';
import { Inject, Injectable, Optional } from '@nestjs/common';
import { GATEWAY_CONFIG, GatewayConfig } from '../config';
import { ServicesClient } from '../kafka/services.client';
import {
  STOCK_PAGE_CONTRIBUTORS,
  StockPageContribution,
  StockPageContributor,
} from './stock-page-contributor';

const log = createLogger('stock-page');

/** What the admin stock page adds to the stock: its announcements, or null and the reason. */
export type StockPageParts = Pick<AdminStockPage, 'announcements' | 'initialPoll' | 'unavailable'>;

export const ANNOUNCEMENTS_CONTRIBUTOR = 'announcements';

/** The stock's latest initial poll as the page's announcements part tells it (for completedInitialPoll). */
export const latestInitialPollOf = (parts: StockPageParts): LatestInitialPoll =>
  parts.unavailable.includes(ANNOUNCEMENTS_CONTRIBUTOR) ? 'unknown' : (parts.initialPoll?.status ?? 'none');

/**
 * Composes the admin stock page (GET /api/stock/{combinedTicker}) like the dashboards (ADR 0004): the
 * stock from the stocks service, its announcements and latest initial poll from the announcements
 * service. That part is asked within STOCK_PAGE_CONTRIBUTOR_TIMEOUT_MS; when it fails or is slower, the
 * page still answers, with `announcements: null, initialPoll: null` and 'announcements' in `unavailable`
 * (the Config tab is worth more than an error page).
 */
@Injectable()
export class StockPageComposer {
  constructor(
    private readonly services: ServicesClient,
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
    const results = await Promise.all(
      this.contributors.map(async (c) => {
        try {
          return {
            ok: true as const,
            c,
            part: await c.contribute(combinedTicker, this.config.STOCK_PAGE_CONTRIBUTOR_TIMEOUT_MS),
          };
        } catch (err) {
          log.warn(
            { combinedTicker, contributor: c.name, reason: err instanceof Error ? err.message : String(err) },
            'stock page part unavailable',
          );
          return { ok: false as const, c, part: c.empty };
        }
      }),
    );
    return {
      fields: Object.assign({}, ...results.map((r) => r.part)) as StockPageContribution,
      unavailable: results.filter((r) => !r.ok).map((r) => r.c.name),
    };
  }

  /**
   * The announcements part of a stock's page. Never rejects, so it can be started beside the stock's own
   * request and awaited after it.
   */
  async announcementsOf(actor: SessionUser, combinedTicker: string): Promise<StockPageParts> {
    let list: AnnouncementList;
    try {
      list = await this.services.request(
        Topics.AnnouncementsList,
        { actor, combinedTicker, includeDeleted: true },
        this.config.STOCK_PAGE_CONTRIBUTOR_TIMEOUT_MS,
      );
    } catch (err) {
      log.warn(
        { combinedTicker, reason: err instanceof Error ? err.message : String(err) },
        'stock page announcements unavailable',
      );
      return { announcements: null, initialPoll: null, unavailable: [ANNOUNCEMENTS_CONTRIBUTOR] };
    }
    return { announcements: list.announcements, initialPoll: list.initialPoll, unavailable: [] };
  }
}
