import {
  asxTradingDaysBefore,
  isAsxTradingDay,
  MarketDataField,
  previousAsxTradingDay,
  sydneyDayOf,
} from '@irp/proto';
import type { ApiQuote, ApiTrade } from './market-data-client';
import type { TradeEntity } from './trade.entity';

/** A trade of a stock-day to store (its stock and day are the load's); `tradedAt` as COPY's ISO text. */
export type TradeToCopy = Pick<
  TradeEntity,
  'seq' | 'priceE4' | 'volume' | 'buyerBroker' | 'sellerBroker' | 'conditions'
> & { tradedAt: string };

/** A stock a job could not read, and why (the jobs' answers). */
export interface JobFailure {
  ticker: string;
  errorMessage: string;
}

/**
 * The trading day a quote taken now belongs to: today in Sydney when the ASX trades today, else the last
 * trading day before (a weekend or holiday is still the previous trading day's).
 */
export function currentTradingDay(now: Date): string {
  const today = sydneyDayOf(now);
  return isAsxTradingDay(today) ? today : previousAsxTradingDay(today);
}

/**
 * The latest trading day whose trades the provider has published by `now`: the `lagDays`-th trading day
 * before today in Sydney (T+3: on a Thursday, the Monday before).
 */
export function publishedTradeDay(now: Date, lagDays: number): string {
  return asxTradingDaysBefore(sydneyDayOf(now), lagDays)[0]!;
}

/**
 * Whether the trades of `day` are overdue by `now`: the provider should have published them `lagDays`
 * trading days after, and `graceDays` more have passed. An overdue day still unpublished is a gap.
 */
export function isPublicationOverdue(day: string, now: Date, lagDays: number, graceDays: number): boolean {
  return day <= publishedTradeDay(now, lagDays + graceDays);
}

/** Dollars to hundredths of a cent ($0.0015 -> 15), rounded to the unit. */
export const toPriceE4 = (dollars: number): number => Math.round(dollars * 10_000);

/** The provider's trade as stored. */
export function tradeToCopyOf(t: ApiTrade): TradeToCopy {
  return {
    seq: t.seq,
    tradedAt: new Date(t.tradedAt).toISOString(),
    priceE4: toPriceE4(t.price),
    volume: t.volume,
    buyerBroker: t.buyerBrokerId,
    sellerBroker: t.sellerBrokerId,
    // Condition codes are short letter codes; anything else would break COPY's text format.
    conditions: t.conditionCodes
      .map((c) => c.replace(/[^A-Za-z0-9]/g, ''))
      .filter(Boolean)
      .join(','),
  };
}

/** COPY text rows (tab-separated, newline-ended), in chunks of 2,000 rows. */
export function* tradeCopyLines(stockId: string, day: string, trades: TradeToCopy[]): Generator<string> {
  for (let i = 0; i < trades.length; i += 2000) {
    let chunk = '';
    for (const t of trades.slice(i, i + 2000))
      chunk += `${stockId}\t${day}\t${t.seq}\t${t.tradedAt}\t${t.priceE4}\t${t.volume}\t${t.buyerBroker}\t${t.sellerBroker}\t${t.conditions}\n`;
    yield chunk;
  }
}

/** The provider's quote as the Market tab's fields. */
export function quoteFieldsOf(q: ApiQuote): Record<MarketDataField, number | null> {
  return {
    ask: q.ask,
    bid: q.bid,
    last: q.last,
    movement: q.change,
    movementPercent: q.changePercent,
    open: q.open,
    high: q.high,
    low: q.low,
    volume: q.volume,
    sharesOnIssue: q.sharesOnIssue,
    marketCap: q.marketCap,
  };
}

/** The provider's code of a stock: its ticker (the provider lists codes without the exchange). */
export const providerCodeOf = (stock: { ticker: string }): string => stock.ticker.trim().toUpperCase();

/** Runs `work` over `items`, at most `limit` at once; each result or its error, in order. */
export async function mapLimited<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<Array<{ ok: true; value: R } | { ok: false; error: unknown }>> {
  const out: Array<{ ok: true; value: R } | { ok: false; error: unknown }> = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      try {
        out[i] = { ok: true, value: await work(items[i]!) };
      } catch (error) {
        out[i] = { ok: false, error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
