import type { PreReleaseFlag, ReportView } from '@irp/proto';
import type { MarketGap } from '../market/market-gap.entity';
import type { ProjectedStock } from '../stocks/stock-projection.entity';
import {
  activityText,
  BASELINE_SESSIONS,
  BrokerAggregate,
  brokerShareOf,
  changePercent,
  DayStats,
  e4ToDollars,
  PRE_RELEASE_SESSIONS,
  PRE_RELEASE_THRESHOLD,
  ReportAnnouncement,
  round,
  StockTotals,
  totalsByStock,
} from './report-rules';

/**
 * The figures of a report's view (spec section 3), each from the sums the repository read: pure, so every
 * figure is unit-tested without a database. `reportViewOf` puts them together; GenerateReport reads and
 * stores.
 */

/** What a report says of a stock: its name, and whether its market data is read. */
export type ReportStock = Pick<ProjectedStock, 'id' | 'combinedTicker' | 'companyName' | 'disableMarketData'>;

export type MissingDay = ReportView['reportPeriod']['missingDays'][number];

export type BrokerShareAnalysis = ReportView['brokerActivityViewModels'][number]['brokerShareAnalysis'];

/** Each stock's top brokers by value and how many brokers traded it (ReportsRepository.topBrokers). */
export type TopBrokers = Map<
  string,
  Pick<BrokerShareAnalysis, 'brokerCount'> & { brokers: BrokerAggregate[] }
>;

/**
 * The trading days before today that a stock with market data has not loaded, with the provider's reason
 * when it failed. A stock whose market data is disabled is never loaded: said once (marketDataDisabled),
 * not day by day. `loaded` holds `${stockId}:${day}`.
 */
export function missingDaysOf(
  stocks: readonly ReportStock[],
  tradingDays: readonly string[],
  today: string,
  loaded: ReadonlySet<string>,
  gaps: readonly Pick<MarketGap, 'stockId' | 'day' | 'reason'>[],
): MissingDay[] {
  return stocks
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
}

/** Why a report of a target without trades in the range is refused (its market data disabled or missing). */
export function noTradesMessage(
  target: ReportStock,
  startDate: string,
  endDate: string,
  missingDays: readonly MissingDay[],
): string {
  const missing = missingDays.filter((m) => m.ticker === target.combinedTicker).length;
  const why = target.disableMarketData
    ? ': its market data is disabled'
    : missing
      ? `: the market data of ${missing} trading day${missing === 1 ? ' is' : 's are'} missing`
      : '';
  return `There are no trades of ${target.combinedTicker} between ${startDate} and ${endDate}${why}`;
}

/** Change in percent from the first day's open to the last day's close (null without days). */
export const performanceOf = (days: readonly DayStats[]): number | null =>
  changePercent(days[0]?.openE4 ?? null, days[days.length - 1]?.closeE4 ?? null);

/** Each stock's broker share analysis: its totals and its top brokers' rows. */
export function brokerActivityOf(
  stocks: readonly ReportStock[],
  totals: ReadonlyMap<string, StockTotals>,
  top: TopBrokers,
): ReportView['brokerActivityViewModels'] {
  return stocks.map((s) => {
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
}

/** Each stock's share of the value the target and its peers traded together. */
export function comparativeActivityOf(
  target: ReportStock,
  peers: readonly ReportStock[],
  totals: ReadonlyMap<string, StockTotals>,
): NonNullable<ReportView['comparativeTradingActivity']> {
  const valueOf = (s: ReportStock) => e4ToDollars(totals.get(s.id)?.valueE4 ?? 0);
  const targetValue = valueOf(target);
  const peerValues = peers.map((p) => ({ stock: p, value: valueOf(p) }));
  const totalPeerValue = peerValues.reduce((s, p) => s + p.value, 0);
  return {
    items: [{ stock: target, value: targetValue }, ...peerValues].map(({ stock, value }) => ({
      name: stock.companyName || stock.combinedTicker,
      percent: round((value / (targetValue + totalPeerValue)) * 100, 2),
      meta: { ticker: stock.combinedTicker, value: round(value) },
    })),
    targetValue: round(targetValue),
    totalPeerValue: round(totalPeerValue),
  };
}

/** Each stock's closes, and their change from its first close of the range. */
export function priceComparisonOf(
  stocks: readonly ReportStock[],
  daysOf: (stockId: string) => DayStats[],
): ReportView['priceComparison'] {
  return {
    series: stocks.map((s) => {
      const days = daysOf(s.id);
      const base = days[0]?.closeE4 ?? null;
      return {
        ticker: s.combinedTicker,
        points: days.map((d) => ({
          day: d.tradeDay,
          close: e4ToDollars(d.closeE4),
          changePercent: changePercent(base, d.closeE4) ?? 0,
        })),
      };
    }),
  };
}

/**
 * The target's trading days up to today (today only once it has trades): each day's figures, its
 * announcements, and null figures where the day's data is missing (not zeros).
 */
export function tradeAnalysisOf(
  target: ReportStock,
  tradingDays: readonly string[],
  today: string,
  targetDays: readonly DayStats[],
  missingDays: readonly MissingDay[],
  announcements: readonly ReportAnnouncement[],
): ReportView['tradeAnalysis'] {
  const statsByDay = new Map(targetDays.map((d) => [d.tradeDay, d]));
  return tradingDays
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
}

/** The target's activity over the range: totals, value per day, VWAP, open, close, high, low, change. */
export function activitySummaryOf(
  target: ReportStock,
  totals: StockTotals,
  targetDays: readonly DayStats[],
  brokerCount: number,
): ReportView['activitySummary'] {
  const value = e4ToDollars(totals.valueE4);
  const first = targetDays[0];
  const last = targetDays[targetDays.length - 1];
  return {
    numTrades: totals.numTrades,
    totalVolume: totals.volume,
    totalValue: round(value),
    averageDailyValue: round(value / Math.max(1, targetDays.length)),
    vwap: round(value / totals.volume, 4),
    open: first ? e4ToDollars(first.openE4) : null,
    close: last ? e4ToDollars(last.closeE4) : null,
    high: targetDays.length ? e4ToDollars(Math.max(...targetDays.map((d) => d.highE4))) : null,
    low: targetDays.length ? e4ToDollars(Math.min(...targetDays.map((d) => d.lowE4))) : null,
    changePercent: performanceOf(targetDays),
    brokerCount,
    text: activityText(target.combinedTicker, totals.numTrades, value, targetDays.length, brokerCount),
  };
}

/** The range: its trading days, the days with data, what is missing and which stocks are not read. */
export function reportPeriodOf(
  startDate: string,
  endDate: string,
  tradingDays: readonly string[],
  daysWithData: number,
  missingDays: MissingDay[],
  disabled: readonly ReportStock[],
): ReportView['reportPeriod'] {
  const disabledTickers = disabled.map((s) => s.combinedTicker);
  return {
    startDate,
    endDate,
    tradingDays: tradingDays.length,
    daysWithData,
    missingDays,
    marketDataDisabled: disabledTickers,
    text: `${startDate} to ${endDate}: ${tradingDays.length} trading days${missingDays.length ? `; market data missing for ${missingDays.length} stock-day${missingDays.length === 1 ? '' : 's'}` : ''}${disabled.length ? `; market data disabled for ${disabledTickers.join(', ')}` : ''}`,
  };
}

/** Everything a report's view is made of: what was asked and what the repository read for it. */
export interface ReportInput {
  guid: string;
  created: string;
  target: ReportStock;
  peers: ReportStock[];
  startDate: string;
  endDate: string;
  tradingDays: string[];
  /** The Sydney day the report is made on: later days are not missing, today only counts with trades. */
  today: string;
  allowSearch: boolean;
  priceOverlay: boolean;
  comparativeTradingActivity: boolean;
  announcements: ReportAnnouncement[];
  top: TopBrokers;
  /** Every stock's days with trades, by stock then day. */
  daily: DayStats[];
  loaded: ReadonlySet<string>;
  gaps: Pick<MarketGap, 'stockId' | 'day' | 'reason'>[];
  flags: PreReleaseFlag[];
}

/** The report's view, or why there is none (the target has no trades in the range). */
export function reportViewOf(
  input: ReportInput,
): { ok: true; view: ReportView } | { ok: false; message: string } {
  const { target, peers, startDate, endDate, tradingDays, today } = input;
  const all = [target, ...peers];
  const totals = totalsByStock(input.daily);
  const missingDays = missingDaysOf(all, tradingDays, today, input.loaded, input.gaps);
  const targetTotals = totals.get(target.id);
  if (!targetTotals?.numTrades)
    return { ok: false, message: noTradesMessage(target, startDate, endDate, missingDays) };
  const daysOf = (id: string) => input.daily.filter((d) => d.stockId === id);
  const targetDays = daysOf(target.id);
  return {
    ok: true,
    view: {
      guid: input.guid,
      created: input.created,
      stockId: target.id,
      ticker: target.combinedTicker,
      companyName: target.companyName,
      peers: peers.map((p) => p.combinedTicker),
      startDate,
      endDate,
      allowSearch: input.allowSearch,
      priceOverlay: input.priceOverlay,
      activitySummary: activitySummaryOf(
        target,
        targetTotals,
        targetDays,
        input.top.get(target.id)?.brokerCount ?? 0,
      ),
      reportPeriod: reportPeriodOf(
        startDate,
        endDate,
        tradingDays,
        targetDays.length,
        missingDays,
        all.filter((s) => s.disableMarketData),
      ),
      brokerActivityViewModels: brokerActivityOf(all, totals, input.top),
      comparativeTradingActivity: input.comparativeTradingActivity
        ? comparativeActivityOf(target, peers, totals)
        : null,
      priceComparison: priceComparisonOf(all, daysOf),
      tradeAnalysis: tradeAnalysisOf(
        target,
        tradingDays,
        today,
        targetDays,
        missingDays,
        input.announcements,
      ),
      peerPerformance: all.map((s) => ({ name: s.combinedTicker, percentage: performanceOf(daysOf(s.id)) })),
      preRelease: {
        sessionsBefore: PRE_RELEASE_SESSIONS,
        baselineSessions: BASELINE_SESSIONS,
        threshold: PRE_RELEASE_THRESHOLD,
        flags: input.flags,
      },
    },
  };
}
