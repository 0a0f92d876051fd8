import {
  asxTradingDaysBefore,
  asxTradingDaysBetween,
  BrokerShare,
  PreReleaseFlag,
  previousCalendarMonth,
  sydneyDayOf,
} from '@irp/proto';
import type { AnnouncementEntity } from '../announcements/announcement.entity';
import type { BrokerDayEntity } from '../market/broker-day.entity';
import type { BrokerEntity } from '../market/broker.entity';
import type { DayStatsEntity } from '../market/day-stats.entity';

/** Most days a report may span (a year and a day). */
export const MAX_REPORT_DAYS = 366;
/** Brokers listed per ticker (spec section 9: top 20 brokers). */
export const TOP_BROKERS = 20;
/** Pre-release flag: sessions before a price-sensitive announcement, baseline sessions before those. */
export const PRE_RELEASE_SESSIONS = 5;
export const BASELINE_SESSIONS = 30;
/** How many robust spreads from its baseline a broker's pre-release net volume must be to be flagged. */
export const PRE_RELEASE_THRESHOLD = 4;
/** ... and at least this share of the stock's volume in those sessions (small brokers' noise aside). */
export const PRE_RELEASE_MIN_SHARE = 0.04;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A bare ticker means ASX. */
export const withExchange = (ticker: string): string => (ticker.includes(':') ? ticker : `${ticker}:ASX`);

/** The range asked for, defaults filled, or the reason it cannot be reported on. */
export function reportRange(
  startDate: string | undefined,
  endDate: string | undefined,
  now: Date,
): { ok: true; startDate: string; endDate: string; tradingDays: string[] } | { ok: false; message: string } {
  const fallback = previousCalendarMonth(now);
  const start = startDate ?? (endDate ? undefined : fallback.startDate);
  const end = endDate ?? (startDate ? sydneyDayOf(now) : fallback.endDate);
  const from = start ?? end!;
  for (const [name, d] of [
    ['StartDate', from],
    ['EndDate', end],
  ] as const)
    if (
      !DAY.test(d!) ||
      Number.isNaN(Date.parse(`${d}T00:00:00Z`)) ||
      new Date(`${d}T00:00:00Z`).toISOString().slice(0, 10) !== d
    )
      return { ok: false, message: `${name} ${d} is not a date` };
  if (end! < from) return { ok: false, message: `The end date ${end} is before the start date ${from}` };
  const days = (Date.parse(`${end}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000 + 1;
  if (days > MAX_REPORT_DAYS)
    return {
      ok: false,
      message: `A report covers at most ${MAX_REPORT_DAYS} days; ${from} to ${end} is ${days}`,
    };
  const tradingDays = asxTradingDaysBetween(from, end!);
  if (!tradingDays.length)
    return { ok: false, message: `There are no trading days between ${from} and ${end}` };
  return { ok: true, startDate: from, endDate: end!, tradingDays };
}

/** Hundredths of a cent to dollars, and values to cents' precision. */
export const e4ToDollars = (e4: number): number => e4 / 10_000;
export const round = (n: number, places = 2): number => {
  const f = 10 ** places;
  return Math.round(n * f) / f;
};

/**
 * A broker's aggregates as SQL gives them: the sums of its `broker_days` over the range (volumes in shares,
 * values in hundredths of a cent x shares), and its name when the broker list has it.
 */
export type BrokerAggregate = Pick<
  BrokerDayEntity,
  'buys' | 'buyVol' | 'buyValueE4' | 'sells' | 'sellVol' | 'sellValueE4'
> & { broker: BrokerDayEntity['brokerId']; name: BrokerEntity['name'] | null };

/** A stock's trades, volume and value (hundredths of a cent) over the report's range. */
export interface StockTotals {
  numTrades: number;
  volume: number;
  valueE4: number;
}

/** A stock-day's sums as the reports read them (`day_stats`). */
export type DayStats = Pick<
  DayStatsEntity,
  'stockId' | 'tradeDay' | 'numTrades' | 'volume' | 'valueE4' | 'highE4' | 'lowE4' | 'openE4' | 'closeE4'
>;

/** Each stock's totals as the sum of its days' aggregates (one scan of the trades serves both). */
export function totalsByStock(
  days: ReadonlyArray<Pick<DayStats, 'stockId' | 'numTrades' | 'volume' | 'valueE4'>>,
): Map<string, StockTotals> {
  const totals = new Map<string, StockTotals>();
  for (const d of days) {
    const t = totals.get(d.stockId) ?? { numTrades: 0, volume: 0, valueE4: 0 };
    t.numTrades += d.numTrades;
    t.volume += d.volume;
    t.valueE4 += d.valueE4;
    totals.set(d.stockId, t);
  }
  return totals;
}

/** The broker share analysis row of spec section 3 from a broker's aggregates and the stock's volume. */
export function brokerShareOf(a: BrokerAggregate, totalVolume: number): BrokerShare {
  const buyValue = e4ToDollars(a.buyValueE4);
  const sellValue = e4ToDollars(a.sellValueE4);
  return {
    name: a.name ?? `Broker ${a.broker}`,
    totVal: round(buyValue + sellValue),
    netVal: round(buyValue - sellValue),
    netVol: a.buyVol - a.sellVol,
    sells: a.sells,
    sellVol: a.sellVol,
    sellPrice: a.sellVol ? round(sellValue / a.sellVol, 4) : 0,
    sellValue: round(sellValue),
    buys: a.buys,
    buyVol: a.buyVol,
    buyPrice: a.buyVol ? round(buyValue / a.buyVol, 4) : 0,
    buyValue: round(buyValue),
    trades: a.buys + a.sells,
    tradedPercent: totalVolume ? round(((a.buyVol + a.sellVol) / (2 * totalVolume)) * 100, 2) : 0,
  };
}

/** Change in percent from `from` to `to` (null without a start). */
export const changePercent = (from: number | null, to: number | null): number | null =>
  from && to !== null ? round(((to - from) / from) * 100, 2) : null;

/** One broker's net volume and value on one day (SQL's daily net positions). */
export interface DailyNet {
  day: string;
  broker: number;
  name: string | null;
  netVol: number;
  netValueE4: number;
}

/** An announcement of the report's range: its Sydney day, release time (`date`, ISO) and headline. */
export type PriceSensitiveAnnouncement = Pick<AnnouncementEntity, 'day' | 'headline'> & { date: string };

/** ... and whether it is price sensitive (trade analysis shows every one, the pre-release flag those). */
export type ReportAnnouncement = PriceSensitiveAnnouncement & Pick<AnnouncementEntity, 'priceSensitive'>;

const median = (xs: number[]): number => {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

/**
 * The days the pre-release check reads: from the baseline of the range's first price-sensitive announcement
 * to its last one's day, with those announcements; null when the range has none.
 */
export function preReleaseWindow(
  announcements: readonly ReportAnnouncement[],
): { sensitive: ReportAnnouncement[]; from: string; to: string } | null {
  const sensitive = announcements.filter((a) => a.priceSensitive);
  if (!sensitive.length) return null;
  return {
    sensitive,
    from: asxTradingDaysBefore(sensitive[0]!.day, PRE_RELEASE_SESSIONS + BASELINE_SESSIONS)[0]!,
    to: sensitive[sensitive.length - 1]!.day,
  };
}

/**
 * The pre-release flag: for each price-sensitive announcement, each broker's net volume over the
 * PRE_RELEASE_SESSIONS sessions before its day, against that broker's own baseline: its net volume over
 * every window of as many sessions in the BASELINE_SESSIONS before them (median, and the median absolute
 * deviation scaled to a standard deviation; robust, so an earlier episode in the baseline does not hide
 * this one). A broker is flagged when its pre-release net is at least PRE_RELEASE_THRESHOLD spreads from
 * its baseline and at least PRE_RELEASE_MIN_SHARE of the stock's volume in those sessions. The spread has
 * a floor (1% of the sessions' volume), so a broker that never trades is not an outlier by one small lot.
 *
 * `sessionsOf(day)` gives the trading days before `day` (oldest first); `net` holds the daily nets of the
 * days it needs; `dayVolume` the stock's volume per day.
 */
export function preReleaseFlags(
  announcements: PriceSensitiveAnnouncement[],
  net: DailyNet[],
  dayVolume: Map<string, number>,
  sessionsOf: (day: string, count: number) => string[],
): PreReleaseFlag[] {
  const byBroker = new Map<number, { name: string | null; days: Map<string, DailyNet> }>();
  for (const row of net) {
    let b = byBroker.get(row.broker);
    if (!b) byBroker.set(row.broker, (b = { name: row.name, days: new Map() }));
    b.days.set(row.day, row);
  }
  const flags: PreReleaseFlag[] = [];
  for (const a of announcements) {
    const all = sessionsOf(a.day, PRE_RELEASE_SESSIONS + BASELINE_SESSIONS);
    const sessions = all.slice(-PRE_RELEASE_SESSIONS);
    const baseline = all.slice(0, -PRE_RELEASE_SESSIONS);
    const sessionsVolume = sessions.reduce((s, d) => s + (dayVolume.get(d) ?? 0), 0);
    if (!sessionsVolume) continue;
    const floor = Math.max(1, sessionsVolume * 0.01);
    for (const [broker, b] of byBroker) {
      const sum = (days: string[], pick: (r: DailyNet) => number) =>
        days.reduce((s, d) => s + (b.days.has(d) ? pick(b.days.get(d)!) : 0), 0);
      const netVol = sum(sessions, (r) => r.netVol);
      if (Math.abs(netVol) < sessionsVolume * PRE_RELEASE_MIN_SHARE) continue;
      const windows: number[] = [];
      for (let i = 0; i + PRE_RELEASE_SESSIONS <= baseline.length; i++)
        windows.push(sum(baseline.slice(i, i + PRE_RELEASE_SESSIONS), (r) => r.netVol));
      const centre = median(windows);
      const spread = Math.max(floor, 1.4826 * median(windows.map((w) => Math.abs(w - centre))));
      const score = (netVol - centre) / spread;
      if (Math.abs(score) < PRE_RELEASE_THRESHOLD) continue;
      flags.push({
        announcementDate: a.date,
        headline: a.headline,
        broker: b.name ?? `Broker ${broker}`,
        sessions,
        netVol,
        netVal: round(e4ToDollars(sum(sessions, (r) => r.netValueE4))),
        baselineNetVol: round(centre, 0),
        baselineSpread: round(spread, 0),
        score: round(score, 1),
      });
    }
  }
  return flags.sort(
    (x, y) => x.announcementDate.localeCompare(y.announcementDate) || Math.abs(y.score) - Math.abs(x.score),
  );
}

/** The report guid: 128 random bits as 32 hex digits (the caller gives the bytes: crypto's randomBytes). */
export const guidOf = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

/** Words of the activity summary. */
export function activityText(
  ticker: string,
  numTrades: number,
  value: number,
  days: number,
  brokers: number,
): string {
  const money = new Intl.NumberFormat('en-AU', {
    style: 'currency',
    currency: 'AUD',
    maximumFractionDigits: 0,
  }).format(value);
  return `${ticker}: ${numTrades.toLocaleString('en-AU')} trades worth ${money} over ${days} trading day${days === 1 ? '' : 's'}, between ${brokers} broker${brokers === 1 ? '' : 's'}.`;
}

/**
 * Why a public search of a report's other dates is refused when `live` regenerations of it are kept and
 * `max` may be (REPORT_REGENERATIONS_PER_REPORT); undefined when it may go on.
 */
export function regenerationsRefusal(live: number, max: number): string | undefined {
  if (live < max) return undefined;
  return `This report has been searched over ${max} other date ranges, as many as are kept at once: open one of them, or try again once they expire`;
}
