import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { GATEWAY_CONFIG, GatewayConfig } from '../config';
import { SharedLimiter, SharedLimitStore } from '../limits/limit-store';
import { clientAddressOf, refuseOverLimit } from '../limits/public-limits';

type ReportSearchLimitConfig = Pick<
  GatewayConfig,
  'REPORT_SEARCH_RATE_PER_ADDRESS' | 'REPORT_SEARCH_RATE_PER_REPORT' | 'REPORT_SEARCH_RATE_WINDOW_MS'
>;

/**
 * The public report page's date-range searches, limited per client address and per report in the store
 * every gateway instance shares (each search computes and stores a report): a refusal is a 429 with
 * Retry-After.
 */
@Injectable()
export class ReportSearchLimits {
  private readonly perAddress: SharedLimiter;
  private readonly perReport: SharedLimiter;

  constructor(store: SharedLimitStore, @Inject(GATEWAY_CONFIG) config: ReportSearchLimitConfig) {
    const windowSeconds = Math.ceil(config.REPORT_SEARCH_RATE_WINDOW_MS / 1000);
    this.perAddress = store.limiter(
      'report-search-address',
      config.REPORT_SEARCH_RATE_PER_ADDRESS,
      windowSeconds,
    );
    this.perReport = store.limiter(
      'report-search-report',
      config.REPORT_SEARCH_RATE_PER_REPORT,
      windowSeconds,
    );
  }

  async search(guid: string, req: Request, res: Response): Promise<void> {
    const message = (s: number) => `Too many report searches: try again in ${s} seconds`;
    await refuseOverLimit(this.perAddress, `address:${clientAddressOf(req)}`, res, message);
    await refuseOverLimit(this.perReport, `report:${guid.trim().toLowerCase()}`, res, message);
  }
}
