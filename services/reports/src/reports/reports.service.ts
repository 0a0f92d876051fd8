import { AppError } from '@irp/platform';
import { asxTradingDaysBefore, ErrorCode, ReportSummary, ReportView, sydneyDayOf } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { MarketRepository } from '../market/market.repository';
import { ProjectedStock, StockProjectionService } from '../stocks/stock-projection.repository';
import {
  activityText,
  BASELINE_SESSIONS,
  brokerShareOf,
  changePercent,
  e4ToDollars,
  guidOf,
  PRE_RELEASE_SESSIONS,
  PRE_RELEASE_THRESHOLD,
  preReleaseFlags,
  reportRange,
  round,
  TOP_BROKERS,
  totalsByStock,
} from './report-rules';
import { DayStats, ReportsRepository } from './reports.repository';

export interface ReportRequest {
  combinedTicker: string;
  startDate?: string;
  endDate?: string;
  peers: string[];
  comparativeTradingActivity: boolean;
  priceOverlay: boolean;
  allowSearch: boolean;
  createdBy: string | null;
}

const bad = (message: string) => new AppError(ErrorCode.BadRequest, message);
/** A bare ticker means ASX. */
const withExchange = (ticker: string) => (ticker.includes(':') ? ticker : `${ticker}:ASX`);

/**
 * Trading-activity reports: generated over the stored trades (every per-trade figure is an SQL sum of the
 * per stock-day sums kept with the trades, ReportsRepository; this class only puts the sums together), stored with their view under a guid of
 * 128 random bits, listed per stock, read publicly by guid and regenerated over other dates when the
 * report allows search.
 */
@Injectable()
export class ReportsService {
  constructor(
    private readonly reports: ReportsRepository,
    private readonly market: MarketRepository,
    private readonly stocks: StockProjectionService,
  ) {}

  async generate(req: ReportRequest, now = new Date()): Promise<ReportView> {
    const target = await this.stockNamed(req.combinedTicker, 'ticker');
    const peers: ProjectedStock[] = [];
    for (const name of req.peers) {
      const peer = await this.stockNamed(name, 'peer');
      if (peer.id !== target.id && !peers.some((p) => p.id === peer.id)) peers.push(peer);
    }
    const range = reportRange(req.startDate, req.endDate, now);
    if (!range.ok) throw bad(range.message);
    const { startDate, endDate, tradingDays } = range;
    const all = [target, ...peers];
    const ids = all.map((s) => s.id);

    const announcements = await this.reports.announcements(target.id, startDate, endDate);
    // The pre-release check reads the ticker's sums over its own window: beside the other reads.
    const [top, daily, loaded, gaps, flags] = await Promise.all([
      this.reports.topBrokers(ids, startDate, endDate, TOP_BROKERS),
      this.reports.dailyStats(ids, startDate, endDate),
      this.market.loadedDays(ids, startDate, endDate),
      this.market.gaps(ids, startDate, endDate),
      this.preReleaseFlagsOf(target.id, announcements),
    ]);
    const totals = totalsByStock(daily);
    const today = sydneyDayOf(now);
    // A stock whose market data is disabled is never loaded: said once (marketDataDisabled), not day by day.
    const disabled = all.filter((s) => s.disableMarketData);
    const missingDays = all
      .filter((s) => !s.disableMarketData)
      .flatMap((s) =>
        tradingDays
          .filter((d) => d < today && !loaded.has(`${s.id}:${d}`))
          .map((d) => ({
            ticker: s.combinedTicker,
            day: d,
            reason:
              gaps.find((g) => g.stockId === s.id && g.day === d)?.reason ??
              'not loaded from the market-data provider yet',
          })),
      );
    const targetTotals = totals.get(target.id);
    if (!targetTotals?.numTrades) {
      const missing = missingDays.filter((m) => m.ticker === target.combinedTicker).length;
      const why = target.disableMarketData
        ? ': its market data is disabled'
        : missing
          ? `: the market data of ${missing} trading day${missing === 1 ? ' is' : 's are'} missing`
          : '';
      throw bad(`There are no trades of ${target.combinedTicker} between ${startDate} and ${endDate}${why}`);
    }

    const dailyOf = (id: string) => daily.filter((d) => d.stockId === id);
    const targetDays = dailyOf(target.id);
    const first = targetDays[0];
    const last = targetDays[targetDays.length - 1];
    const targetValue = e4ToDollars(targetTotals.valueE4);
    const brokerActivity = all.map((s) => {
      const t = totals.get(s.id);
      const b = top.get(s.id);
      return {
        brokerShareAnalysis: {
          ticker: s.combinedTicker,
          totalValue: round(e4ToDollars(t?.valueE4 ?? 0)),
          totalVolume: t?.volume ?? 0,
          numTrades: t?.numTrades ?? 0,
          brokerCount: b?.brokerCount ?? 0,
          brokers: (b?.brokers ?? []).map((a) => brokerShareOf(a, t?.volume ?? 0)),
        },
      };
    });

    const peerValues = peers.map((p) => ({ stock: p, value: e4ToDollars(totals.get(p.id)?.valueE4 ?? 0) }));
    const totalPeerValue = peerValues.reduce((s, p) => s + p.value, 0);
    const comparative = req.comparativeTradingActivity
      ? {
          items: [{ stock: target, value: targetValue }, ...peerValues].map(({ stock, value }) => ({
            name: stock.companyName || stock.combinedTicker,
            percent: round((value / (targetValue + totalPeerValue)) * 100, 2),
            meta: { ticker: stock.combinedTicker, value: round(value) },
          })),
          targetValue: round(targetValue),
          totalPeerValue: round(totalPeerValue),
        }
      : null;

    const series = all.map((s) => {
      const days = dailyOf(s.id);
      const base = days[0]?.closeE4 ?? null;
      return {
        ticker: s.combinedTicker,
        points: days.map((d) => ({
          day: d.day,
          close: e4ToDollars(d.closeE4),
          changePercent: changePercent(base, d.closeE4) ?? 0,
        })),
      };
    });
    const performanceOf = (days: DayStats[]) =>
      changePercent(days[0]?.openE4 ?? null, days[days.length - 1]?.closeE4 ?? null);

    const statsByDay = new Map(targetDays.map((d) => [d.day, d]));
    const tradeAnalysis = tradingDays
      .filter((d) => d < today || statsByDay.has(d))
      .map((day) => {
        const s = statsByDay.get(day);
        const missing = !s && missingDays.some((m) => m.ticker === target.combinedTicker && m.day === day);
        return {
          day,
          numTrades: s ? s.numTrades : missing ? null : 0,
          trVal: s ? round(e4ToDollars(s.valueE4)) : missing ? null : 0,
          avgSize: s ? round(s.volume / s.numTrades, 0) : null,
          high: s ? e4ToDollars(s.highE4) : null,
          low: s ? e4ToDollars(s.lowE4) : null,
          close: s ? e4ToDollars(s.closeE4) : null,
          announcements: announcements
            .filter((a) => a.day === day)
            .map((a) => ({ date: a.date, headline: a.headline, priceSensitive: a.priceSensitive })),
          missingData: missing,
        };
      });

    const guid = guidOf(randomBytes(16));
    const created = now.toISOString();
    const view: ReportView = {
      guid,
      created,
      stockId: target.id,
      ticker: target.combinedTicker,
      companyName: target.companyName,
      peers: peers.map((p) => p.combinedTicker),
      startDate,
      endDate,
      allowSearch: req.allowSearch,
      priceOverlay: req.priceOverlay,
      activitySummary: {
        numTrades: targetTotals.numTrades,
        totalVolume: targetTotals.volume,
        totalValue: round(targetValue),
        averageDailyValue: round(targetValue / Math.max(1, targetDays.length)),
        vwap: round(targetValue / targetTotals.volume, 4),
        open: first ? e4ToDollars(first.openE4) : null,
        close: last ? e4ToDollars(last.closeE4) : null,
        high: targetDays.length ? e4ToDollars(Math.max(...targetDays.map((d) => d.highE4))) : null,
        low: targetDays.length ? e4ToDollars(Math.min(...targetDays.map((d) => d.lowE4))) : null,
        changePercent: performanceOf(targetDays),
        brokerCount: top.get(target.id)?.brokerCount ?? 0,
        text: activityText(
          target.combinedTicker,
          targetTotals.numTrades,
          targetValue,
          targetDays.length,
          top.get(target.id)?.brokerCount ?? 0,
        ),
      },
      reportPeriod: {
        startDate,
        endDate,
        tradingDays: tradingDays.length,
        daysWithData: targetDays.length,
        missingDays,
        marketDataDisabled: disabled.map((s) => s.combinedTicker),
        text: `${startDate} to ${endDate}: ${tradingDays.length} trading days${missingDays.length ? `; market data missing for ${missingDays.length} stock-day${missingDays.length === 1 ? '' : 's'}` : ''}${disabled.length ? `; market data disabled for ${disabled.map((s) => s.combinedTicker).join(', ')}` : ''}`,
      },
      brokerActivityViewModels: brokerActivity,
      comparativeTradingActivity: comparative,
      priceComparison: { series },
      tradeAnalysis,
      peerPerformance: all.map((s) => ({ name: s.combinedTicker, percentage: performanceOf(dailyOf(s.id)) })),
      preRelease: {
        sessionsBefore: PRE_RELEASE_SESSIONS,
        baselineSessions: BASELINE_SESSIONS,
        threshold: PRE_RELEASE_THRESHOLD,
        flags,
      },
    };
    await this.reports.save({
      guid,
      stockId: target.id,
      ticker: target.combinedTicker,
      peers: view.peers,
      startDate,
      endDate,
      comparative: req.comparativeTradingActivity,
      priceOverlay: req.priceOverlay,
      allowSearch: req.allowSearch,
      created,
      createdBy: req.createdBy,
      view,
    });
    return view;
  }

  async list(combinedTicker: string): Promise<ReportSummary[]> {
    const stock = await this.stocks.byCombinedTicker(withExchange(combinedTicker));
    return this.reports.list(stock.id);
  }

  async get(guid: string): Promise<ReportView> {
    const report = await this.reports.byGuid(guid.trim().toLowerCase());
    if (!report) throw new AppError(ErrorCode.NotFound, 'Report not found');
    return report.view;
  }

  /** The public page's date-range form: a new report like `guid`'s over other dates, if it allows search. */
  async regenerate(
    guid: string,
    startDate: string | undefined,
    endDate: string | undefined,
    now = new Date(),
  ): Promise<ReportView> {
    const report = await this.reports.byGuid(guid.trim().toLowerCase());
    if (!report) throw new AppError(ErrorCode.NotFound, 'Report not found');
    if (!report.allowSearch)
      throw new AppError(ErrorCode.Forbidden, 'This report does not allow searching other dates');
    const stock = await this.stocks.get(report.stockId);
    return this.generate(
      {
        combinedTicker: stock.combinedTicker,
        startDate,
        endDate,
        peers: report.view.peers,
        comparativeTradingActivity: report.view.comparativeTradingActivity !== null,
        priceOverlay: report.view.priceOverlay,
        allowSearch: true,
        createdBy: null,
      },
      now,
    );
  }

  /** Pre-release: the sessions (and baselines) before each price-sensitive announcement of the range. */
  private async preReleaseFlagsOf(
    stockId: string,
    announcements: Awaited<ReturnType<ReportsRepository['announcements']>>,
  ): Promise<ReportView['preRelease']['flags']> {
    const sensitive = announcements.filter((a) => a.priceSensitive);
    if (!sensitive.length) return [];
    const earliest = asxTradingDaysBefore(sensitive[0]!.day, PRE_RELEASE_SESSIONS + BASELINE_SESSIONS)[0]!;
    const lastDay = sensitive[sensitive.length - 1]!.day;
    const [net, windowDays] = await Promise.all([
      this.reports.dailyNet(stockId, earliest, lastDay),
      this.reports.dailyStats([stockId], earliest, lastDay),
    ]);
    return preReleaseFlags(
      sensitive,
      net,
      new Map(windowDays.map((d) => [d.day, d.volume])),
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
