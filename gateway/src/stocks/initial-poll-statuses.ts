import { LatestInitialPoll, Stock, Topics } from '@irp/proto';
import { createLogger } from '@irp/platform';
import { Inject, Injectable } from '@nestjs/common';
import { GATEWAY_CONFIG, GatewayConfig } from '../config';
import { ServicesClient } from '../kafka/services.client';

const log = createLogger('initial-poll-statuses');

/**
 * The latest initial poll of stocks, asked of the announcements service (which alone keeps it) in one
 * request for any number of stocks, so the responses carrying the Stock's `completedInitialPoll` can
 * compose it (`completedInitialPollOf`). Asked within STOCK_PAGE_CONTRIBUTOR_TIMEOUT_MS; without an answer
 * every stock's is 'unknown' and the page still answers.
 */
@Injectable()
export class InitialPollStatuses {
  constructor(
    private readonly services: ServicesClient,
    @Inject(GATEWAY_CONFIG) private readonly config: Pick<GatewayConfig, 'STOCK_PAGE_CONTRIBUTOR_TIMEOUT_MS'>,
  ) {}

  /**
   * Never rejects: a lookup by stock id ('none' for a stock without a run). Only stocks with Poll on are
   * asked about: with polling off a stock's initial poll counts as complete whatever its last run was.
   */
  async of(
    stocks: ReadonlyArray<Pick<Stock, 'id' | 'pollAsx'>>,
  ): Promise<(stockId: string) => LatestInitialPoll> {
    const stockIds = [...new Set(stocks.filter((s) => s.pollAsx).map((s) => s.id))];
    if (!stockIds.length) return () => 'none';
    try {
      const { statuses } = await this.services.request(
        Topics.AnnouncementsInitialPollStatuses,
        { stockIds },
        this.config.STOCK_PAGE_CONTRIBUTOR_TIMEOUT_MS,
      );
      return (stockId) => statuses[stockId] ?? 'none';
    } catch (err) {
      log.warn(
        { stocks: stockIds.length, reason: err instanceof Error ? err.message : String(err) },
        'initial poll statuses unavailable',
      );
      return () => 'unknown';
    }
  }
}
