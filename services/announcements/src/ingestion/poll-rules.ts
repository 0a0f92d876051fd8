import { DISPLAY_TIME_ZONE, type MarketItemsListedEvent, type PollRequestedEvent } from '@irp/proto';
import { DateTime } from 'luxon';
import type { SourceAnnouncement } from '../sources/source';

/**
 * The rules of polling as pure functions: which stocks are polled, what the scheduler publishes, when a
 * poll message is too old to do, how a market-wide poll is fanned out, which years an initial poll reads,
 * and what a failed download leaves behind.
 */

/** What of a stock the polling rules look at: its projection row, and whether its latest initial poll completed. */
export interface PolledStockFields {
  pollAsx: boolean;
  archived: boolean;
  subscriptionExpired: boolean;
  /** This service's own initial_polls row of the stock says completed. */
  initialPollCompleted: boolean;
}

/** Polled every interval: Poll on, not archived, subscription not expired, initial poll complete. */
export const isDue = (s: PolledStockFields): boolean =>
  s.pollAsx && !s.archived && !s.subscriptionExpired && s.initialPollCompleted;

/** Stocks whose announcements are watched at all, as SQL over `announcements.stocks` aliased `alias` (reconcile). */
export const polledStocksWhere = (alias: string): string =>
  `${alias}.poll_asx AND NOT ${alias}.archived AND NOT ${alias}.subscription_expired`;

/** isDue as SQL over `announcements.stocks` aliased `alias`: the scheduler's selection. */
export const dueStocksWhere = (alias: string): string =>
  `${polledStocksWhere(alias)} AND EXISTS (SELECT 1 FROM announcements.initial_polls ip
     WHERE ip.stock_id = ${alias}.id AND ip.status = 'completed')`;

/** System settings' "disable poll until": nothing is published while it is in the future. */
export const isPollingDisabled = (disablePollUntil: Date | null, now: Date): boolean =>
  disablePollUntil !== null && disablePollUntil.getTime() > now.getTime();

/** Poll work as published: the Kafka key (the stock id, so one stock's polls stay on one partition, in order). */
export interface PollWork<E> {
  key: string;
  event: E;
}
export type PollRequest = PollWork<PollRequestedEvent>;
/** A market read's fan-out to one stock (`announcements.market-items-listed`). */
export type MarketItemsListed = PollWork<MarketItemsListedEvent>;

/** One tick's poll work for a per-stock source: per due stock one request, keyed by the stock. */
export function pollRequestsFor(
  stocks: ReadonlyArray<{ id: string; ticker: string }>,
  now: Date,
): PollRequest[] {
  const requestedAt = now.toISOString();
  return stocks.map((s) => ({
    key: s.id,
    event: { stockId: s.id, ticker: s.ticker, market: false, requestedAt },
  }));
}

/** One tick's poll work for a market-wide source while any stock is due: one request, fanned out by its poller. */
export const marketPollRequest = (now: Date): PollRequest => ({
  key: MARKET_KEY,
  event: { stockId: null, ticker: null, market: true, requestedAt: now.toISOString() },
});

/** The key of the market-wide poll: every tick's lands on the same partition, after the previous one. */
export const MARKET_KEY = 'market';

/**
 * How old a poll message may be and still be done. After an outage pollers would otherwise work through
 * every missed tick for the same stocks; a newer tick's message covers the stock anyway.
 */
export const staleAfterMs = (pollIntervalMs: number): number => Math.max(3 * pollIntervalMs, 30_000);

export const isStalePoll = (requestedAt: string, now: Date, pollIntervalMs: number): boolean =>
  now.getTime() - new Date(requestedAt).getTime() > staleAfterMs(pollIntervalMs);

/** Feeds differ in case and padding of tickers; matching is on the trimmed upper-case form. */
export const tickerKey = (ticker: string): string => ticker.trim().toUpperCase();

/**
 * tickerKey in SQL over a ticker column (index `stocks_polled_ticker_key`). It trims spaces only, where
 * tickerKey trims any white space: a stored ticker padded with tabs is not found by a market read.
 */
export const tickerKeySql = (column: string): string => `upper(btrim(${column}))`;

/** The fields of a source item a fanned-out poll message carries (PolledItemSchema). */
export function polledItem(item: SourceAnnouncement): MarketItemsListedEvent['items'][number] {
  return {
    sourceKey: item.sourceKey,
    ticker: item.ticker,
    headline: item.headline,
    releasedAt: item.releasedAt,
    priceSensitive: item.priceSensitive,
    documentUrl: item.documentUrl,
  };
}

/**
 * A market-wide poll's fan-out: per due stock, the items of its ticker not stored yet. A stock without new
 * items gets a message too when it has downloads pending (`withPending`), so in market mode a PDF that
 * failed to download is still tried again every interval.
 */
export function fanOut(
  items: readonly SourceAnnouncement[],
  stocks: ReadonlyArray<{ id: string; ticker: string }>,
  requestedAt: string,
  withPending: ReadonlySet<string> = new Set(),
  stored: ReadonlySet<string> = new Set(),
): MarketItemsListed[] {
  const byTicker = new Map<string, SourceAnnouncement[]>();
  for (const item of items) {
    const key = tickerKey(item.ticker);
    byTicker.set(key, [...(byTicker.get(key) ?? []), item]);
  }
  const requests: MarketItemsListed[] = [];
  for (const stock of stocks) {
    const found = (byTicker.get(tickerKey(stock.ticker)) ?? []).filter(
      (item) => !stored.has(storedKey(stock.id, item.sourceKey)),
    );
    if (!found.length && !withPending.has(stock.id)) continue;
    requests.push({
      key: stock.id,
      event: { stockId: stock.id, ticker: stock.ticker, requestedAt, items: found.map(polledItem) },
    });
  }
  return requests;
}

/** The key of a stored announcement in `fanOut`'s `stored` set: its natural key (stock, source key). */
export const storedKey = (stockId: string, sourceKey: string): string => `${stockId} ${sourceKey}`;

/** The (stock, source key) pairs of a market read that belong to polled stocks, to ask which are stored. */
export function marketPairs(
  items: readonly SourceAnnouncement[],
  stocks: ReadonlyArray<{ id: string; ticker: string }>,
): { stockIds: string[]; sourceKeys: string[] } {
  // Two stocks may share a ticker (another exchange): each gets the item.
  const idsByTicker = new Map<string, string[]>();
  for (const s of stocks) {
    const key = tickerKey(s.ticker);
    idsByTicker.set(key, [...(idsByTicker.get(key) ?? []), s.id]);
  }
  const stockIds: string[] = [];
  const sourceKeys: string[] = [];
  for (const item of items) {
    for (const id of idsByTicker.get(tickerKey(item.ticker)) ?? []) {
      stockIds.push(id);
      sourceKeys.push(item.sourceKey);
    }
  }
  return { stockIds, sourceKeys };
}

/** The calendar year in Sydney (the source's years are Sydney years). */
export const sydneyYear = (now: Date): number => DateTime.fromJSDate(now).setZone(DISPLAY_TIME_ZONE).year;

/** An initial poll's years: from the stock's announcementStartYear (never after this year) to this year. */
export function initialPollWindow(
  announcementStartYear: number,
  now: Date,
): { fromYear: number; toYear: number } {
  const toYear = sydneyYear(now);
  return { fromYear: Math.min(announcementStartYear, toYear), toYear };
}

/**
 * The years a run reads, in order: from the year it was reading when it stopped (read again: storing is
 * idempotent) or its first year, to its last.
 */
export function yearsToRead(fromYear: number, toYear: number, currentYear: number | null): number[] {
  const start = currentYear === null ? fromYear : Math.max(fromYear, Math.min(currentYear, toYear));
  const years: number[] = [];
  for (let y = start; y <= toYear; y++) years.push(y);
  return years;
}

/** Items released within the last `numDays` days (reconcile's window). */
export function releasedWithin<T extends { releasedAt: string }>(
  items: readonly T[],
  numDays: number,
  now: Date,
): T[] {
  const from = now.getTime() - numDays * 86_400_000;
  return items.filter((i) => {
    const t = new Date(i.releasedAt).getTime();
    return Number.isFinite(t) && t >= from;
  });
}

/** How many times a document is tried (once per poll of its stock) before it is given up as failed. */
export const MAX_DOWNLOAD_ATTEMPTS = 5;

const ATTEMPT_PATTERN = /^Download attempt (\d+) of \d+ failed: /;

/**
 * What a failed download leaves: still `pending` (tried again at the stock's next poll) with the attempt
 * and the reason in `file_problem`, or `failed` once MAX_DOWNLOAD_ATTEMPTS are used up. The attempt count
 * lives in the problem text, which the Announcements tab shows anyway, so no column is needed for it.
 */
export function afterFailedDownload(
  previousProblem: string | null,
  reason: string,
  maxAttempts = MAX_DOWNLOAD_ATTEMPTS,
): { fileStatus: 'pending' | 'failed'; fileProblem: string } {
  const previous = Number(ATTEMPT_PATTERN.exec(previousProblem ?? '')?.[1] ?? 0);
  const attempt = previous + 1;
  if (attempt >= maxAttempts) {
    return { fileStatus: 'failed', fileProblem: `Download failed after ${attempt} attempts: ${reason}` };
  }
  return {
    fileStatus: 'pending',
    fileProblem: `Download attempt ${attempt} of ${maxAttempts} failed: ${reason}`,
  };
}

/** What differs between a stored announcement and a source item with its key; null when it is the same one. */
export function sourceKeyConflict(
  known: { headline: string; headlineOriginal: string | null; releasedAt: Date },
  incoming: { headline: string; releasedAt: string },
): { headline: boolean; releasedAt: boolean } | null {
  // Staff may edit a headline: the source's own is then the original.
  const sourceHeadline = known.headlineOriginal ?? known.headline;
  const headline = sourceHeadline.trim() !== incoming.headline.trim();
  const releasedAt = known.releasedAt.getTime() !== new Date(incoming.releasedAt).getTime();
  return headline || releasedAt ? { headline, releasedAt } : null;
}
