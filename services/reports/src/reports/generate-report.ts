import { AppError } from '@irp/platform';
import { asxTradingDaysBefore, ErrorCode, ReportView, sydneyDayOf } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { MarketRepository } from '../market/market.repository';
import { ProjectedStock, StockProjectionService } from '../stocks/stock-projection.repository';
import {
  guidOf,
  preReleaseFlags,
  preReleaseWindow,
  ReportAnnouncement,
  reportRange,
  TOP_BROKERS,
  withExchange,
} from './report-rules';
import { reportViewOf } from './report-view-rules';
import { ReportsRepository } from './reports.repository';

export interface ReportRequest {
  combinedTicker: string;
  startDate?: string;
  endDate?: string;
  peers: string[];
  comparativeTradingActivity: boolean;
  priceOverlay: boolean;
  allowSearch: boolean;
  createdBy: string | null;
  /** A public regeneration: the staff report it searches and when it goes (RegenerateReport). */
  regeneration?: { parentGuid: string; expiresAt: Date };
}

const bad = (message: string) => new AppError(ErrorCode.BadRequest, message);

/**
 * Generates a trading-activity report over the stored trades and stores it with its view under a guid of
 * 128 random bits. Every per-trade figure is an SQL sum of the per stock-day sums kept with the trades
 * (ReportsRepository); the view is made of them by the pure rules (report-view-rules.ts).
 */
@Injectable()
export class GenerateReport {
  constructor(
    private readonly reports: ReportsRepository,
    private readonly market: MarketRepository,
    private readonly stocks: StockProjectionService,
  ) {}

  async run(req: ReportRequest, now = new Date()): Promise<ReportView> {
    const target = await this.stockNamed(req.combinedTicker, 'ticker');
    const peers: ProjectedStock[] = [];
    for (const name of req.peers) {
      const peer = await this.stockNamed(name, 'peer');
      if (peer.id !== target.id && !peers.some((p) => p.id === peer.id)) peers.push(peer);
    }
    const range = reportRange(req.startDate, req.endDate, now);
    if (!range.ok) throw bad(range.message);
    const { startDate, endDate, tradingDays } = range;
    const ids = [target, ...peers].map((s) => s.id);

    const announcements = await this.reports.announcements(target.id, startDate, endDate);
    // The pre-release check reads the ticker's sums over its own window: beside the other reads.
    const [top, daily, loaded, gaps, flags] = await Promise.all([
      this.reports.topBrokers(ids, startDate, endDate, TOP_BROKERS),
      this.reports.dailyStats(ids, startDate, endDate),
      this.market.loadedDays(ids, startDate, endDate),
      this.market.gaps(ids, startDate, endDate),
      this.preReleaseFlagsOf(target.id, announcements),
    ]);
    const created = now.toISOString();
    const made = reportViewOf({
      guid: guidOf(randomBytes(16)),
      created,
      target,
      peers,
      startDate,
      endDate,
      tradingDays,
      today: sydneyDayOf(now),
      allowSearch: req.allowSearch,
      priceOverlay: req.priceOverlay,
      comparativeTradingActivity: req.comparativeTradingActivity,
      announcements,
      top,
      daily,
      loaded,
      gaps,
      flags,
    });
    if (!made.ok) throw bad(made.message);
    const { view } = made;
    const stored = await this.reports.save({
      guid: view.guid,
      stockId: target.id,
      ticker: target.combinedTicker,
      peers: view.peers,
      startDate,
      endDate,
      comparative: req.comparativeTradingActivity,
      priceOverlay: req.priceOverlay,
      allowSearch: req.allowSearch,
      created: now,
      createdBy: req.createdBy,
      view,
      parentGuid: req.regeneration?.parentGuid ?? null,
      expiresAt: req.regeneration?.expiresAt ?? null,
    });
    if (stored || !req.regeneration) return view;
    // The same search made at the same moment: the one stored first is the answer.
    const first = await this.reports.regeneration(req.regeneration.parentGuid, startDate, endDate);
    return first?.view ?? view;
  }

  /** Pre-release: the sessions (and baselines) before each price-sensitive announcement of the range. */
  private async preReleaseFlagsOf(
    stockId: string,
    announcements: ReportAnnouncement[],
  ): Promise<ReportView['preRelease']['flags']> {
    const window = preReleaseWindow(announcements);
    if (!window) return [];
    const [net, windowDays] = await Promise.all([
      this.reports.dailyNet(stockId, window.from, window.to),
      this.reports.dailyStats([stockId], window.from, window.to),
    ]);
    return preReleaseFlags(
      window.sensitive,
      net,
      new Map(windowDays.map((d) => [d.tradeDay, d.volume])),
      asxTradingDaysBefore,
    );
  }

  private async stockNamed(name: string, what: 'ticker' | 'peer'): Promise<ProjectedStock> {
    try {
      return await this.stocks.byCombinedTicker(withExchange(name.trim().toUpperCase()));
    } catch (error) {
      if (
        error instanceof AppError &&
        (error.code === ErrorCode.NotFound || error.code === ErrorCode.BadRequest)
      )
        throw new AppError(
          what === 'peer' ? ErrorCode.BadRequest : ErrorCode.NotFound,
          what === 'peer' ? `Unknown peer ${name}` : `Unknown ticker ${name}`,
        );
      throw error;
    }
  }
}
