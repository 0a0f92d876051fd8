import {
  asxTradingDaysBefore,
  asxTradingDaysBetween,
  DEMO_MARKET_DATA_API_KEY,
  sydneyDayOf,
} from '@irp/proto';
import { FaultRuleInput, HttpError, sendJson, StandInServer, startStandInServer } from '../kit';
import {
  barOf,
  BROKERS,
  isListed,
  lastCompletedDay,
  MARKET_EPOCH,
  profileOf,
  tickE4,
  tradesOf,
} from './market-model';

/** The demo API key the stand-in accepts (and `make up` configures); any other key is 401. */
export const DEMO_MARKET_API_KEY = DEMO_MARKET_DATA_API_KEY;
/** Trades per page: the default and the most a caller may ask for. */
export const TRADES_PAGE_SIZE = 5000;
export const MAX_TRADES_PAGE_SIZE = 10_000;
/** Trading days after which a day's trades are published, as the real provider does (T+3). */
export const DEFAULT_PUBLICATION_LAG_DAYS = 3;
/** The error reason of a day not published yet (beside the message: callers need not parse English). */
export const NOT_PUBLISHED_YET = 'not_published_yet';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const dollars = (e4: number) => e4 / 10_000;

export interface MarketStandInOptions {
  port?: number;
  faults?: FaultRuleInput[];
  apiKey?: string;
  /** Requests per key in a rolling minute before 429 with Retry-After (default 1,200). */
  perMinute?: number;
  /** The stand-in's clock (tests move it). */
  now?: () => Date;
  /**
   * Multiplies every code's mean trades a day (default 1, the demo market): bench/reports.bench.mjs reads a
   * month of about a million trades of six stocks.
   */
  tradesScale?: number;
  /**
   * Trading days after which a day's trades are published (default 3: T+3, the real provider's delay of
   * trades with broker ids); a younger day is 404 with the reason `not_published_yet`.
   */
  publicationLagDays?: number;
}

/**
 * A local stand-in of a market-data provider with broker ids (docs/api/reports.md, "The market-data
 * provider"): quotes, daily OHLCV, each trading day's trades with buyer and seller broker ids (paged) and
 * the broker list, behind an `X-Api-Key` header, with a per-key request limit (429 and Retry-After). Its
 * market is simulated (market-model.ts): deterministic, ASX trading days only, data up to the last
 * completed trading day, trades with broker ids from the day `publicationLagDays` trading days back (T+3).
 * On the stand-in kit: faults on every API route (group `api`; the trades route's
 * fault key is the code), `/standin/health`.
 */
export function startMarketStandIn(options: MarketStandInOptions = {}): Promise<StandInServer> {
  const apiKey = options.apiKey ?? DEMO_MARKET_API_KEY;
  const perMinute = options.perMinute ?? 1200;
  const now = options.now ?? (() => new Date());
  const scale = options.tradesScale ?? 1;
  const lag = options.publicationLagDays ?? DEFAULT_PUBLICATION_LAG_DAYS;
  const publishedDay = () => asxTradingDaysBefore(sydneyDayOf(now()), lag)[0]!;
  const recent: number[] = [];

  const admit = (req: { headers: Record<string, string | string[] | undefined> }) => {
    if (String(req.headers['x-api-key'] ?? '') !== apiKey)
      throw new HttpError(401, 'Invalid or missing API key');
    const t = Date.now();
    while (recent.length && recent[0]! <= t - 60_000) recent.shift();
    if (recent.length >= perMinute) {
      const retry = Math.max(1, Math.ceil((recent[0]! + 60_000 - t) / 1000));
      throw Object.assign(new HttpError(429, `Rate limit of ${perMinute} requests a minute exceeded`), {
        retryAfter: retry,
      });
    }
    recent.push(t);
  };
  const codeOf = (raw: string) => {
    const code = raw.trim().toUpperCase();
    if (!isListed(code)) throw new HttpError(404, `Unknown security ${code}`);
    return code;
  };
  const guarded =
    (
      handle: (
        ctx: Parameters<Parameters<typeof startStandInServer>[0]['routes'][number]['handle']>[0],
      ) => void,
    ) =>
    (ctx: Parameters<Parameters<typeof startStandInServer>[0]['routes'][number]['handle']>[0]) => {
      try {
        admit(ctx.req);
      } catch (err) {
        const retryAfter = (err as { retryAfter?: number }).retryAfter;
        if (retryAfter) {
          ctx.res.setHeader('retry-after', String(retryAfter));
          sendJson(ctx.res, 429, { error: { code: 429, message: (err as Error).message } });
          return;
        }
        throw err;
      }
      handle(ctx);
    };

  return startStandInServer({
    port: options.port,
    faults: options.faults,
    health: () => ({
      brokers: BROKERS.length,
      lastDay: lastCompletedDay(now()),
      tradesPublishedTo: publishedDay(),
    }),
    errorBody: (status, message) => ({ body: { error: { code: status, message } } }),
    routes: [
      {
        method: 'GET',
        path: '/v1/brokers',
        name: 'brokers',
        group: 'api',
        handle: guarded(({ res }) => sendJson(res, 200, { data: BROKERS })),
      },
      {
        method: 'GET',
        path: '/v1/quotes',
        name: 'quotes',
        group: 'api',
        handle: guarded(({ res, query }) => {
          const codes = (query.get('codes') ?? '')
            .split(',')
            .map((c) => c.trim().toUpperCase())
            .filter(Boolean);
          if (!codes.length) throw new HttpError(400, 'codes is required');
          if (codes.length > 100) throw new HttpError(400, 'at most 100 codes per request');
          const day = lastCompletedDay(now());
          const prevDay = asxTradingDaysBetween(MARKET_EPOCH, day).slice(-2)[0] ?? day;
          const data = codes.filter(isListed).flatMap((code) => {
            const bar = barOf(code, day, scale);
            if (!bar) return [];
            const prev = barOf(code, prevDay, scale) ?? bar;
            const tick = tickE4(bar.closeE4);
            const profile = profileOf(code);
            return [
              {
                code,
                bid: dollars(bar.closeE4 - tick),
                ask: dollars(bar.closeE4 + tick),
                last: dollars(bar.closeE4),
                change: dollars(bar.closeE4 - prev.closeE4),
                changePercent: Math.round(((bar.closeE4 - prev.closeE4) / prev.closeE4) * 10_000) / 100,
                open: dollars(bar.openE4),
                high: dollars(bar.highE4),
                low: dollars(bar.lowE4),
                volume: bar.volume,
                sharesOnIssue: profile.sharesOnIssue,
                marketCap: Math.round(dollars(bar.closeE4) * profile.sharesOnIssue),
                asAt: `${day}T06:10:00Z`,
              },
            ];
          });
          sendJson(res, 200, { data, unknown: codes.filter((c) => !isListed(c)) });
        }),
      },
      {
        method: 'GET',
        path: /^\/v1\/securities\/([^/]+)\/ohlcv$/,
        name: 'ohlcv',
        group: 'api',
        faultKey: ({ params }) => params[0]?.toUpperCase(),
        handle: guarded(({ res, query, params }) => {
          const code = codeOf(params[0] ?? '');
          const last = lastCompletedDay(now());
          const from = query.get('from') ?? MARKET_EPOCH;
          const to = query.get('to') ?? last;
          if (!DAY.test(from) || !DAY.test(to))
            throw new HttpError(400, 'from and to are dates (YYYY-MM-DD)');
          const days = asxTradingDaysBetween(
            from < MARKET_EPOCH ? MARKET_EPOCH : from,
            to > last ? last : to,
          );
          const data = days.flatMap((d) => {
            const bar = barOf(code, d, scale);
            return bar
              ? [
                  {
                    date: d,
                    open: dollars(bar.openE4),
                    high: dollars(bar.highE4),
                    low: dollars(bar.lowE4),
                    close: dollars(bar.closeE4),
                    volume: bar.volume,
                    value: bar.value,
                  },
                ]
              : [];
          });
          sendJson(res, 200, { code, data });
        }),
      },
      {
        method: 'GET',
        path: /^\/v1\/securities\/([^/]+)\/trades$/,
        name: 'trades',
        group: 'api',
        faultKey: ({ params }) => params[0]?.toUpperCase(),
        handle: guarded(({ res, query, params, url }) => {
          const code = codeOf(params[0] ?? '');
          const date = query.get('date') ?? '';
          if (!DAY.test(date)) throw new HttpError(400, 'date is required (YYYY-MM-DD)');
          if (date > publishedDay()) {
            sendJson(res, 404, {
              error: {
                code: 404,
                reason: NOT_PUBLISHED_YET,
                message: `Trades of ${date} are not available yet`,
              },
            });
            return;
          }
          const page = Math.max(1, Number(query.get('page') ?? 1) || 1);
          const pageSize = Math.min(
            MAX_TRADES_PAGE_SIZE,
            Math.max(1, Number(query.get('pageSize') ?? TRADES_PAGE_SIZE) || TRADES_PAGE_SIZE),
          );
          const all = tradesOf(code, date, scale);
          const slice = all.slice((page - 1) * pageSize, page * pageSize);
          const more = page * pageSize < all.length;
          sendJson(res, 200, {
            code,
            date,
            tradingDay: all.length > 0,
            data: slice.map((t) => ({
              seq: t.seq,
              tradedAt: t.tradedAt,
              code: t.code,
              price: dollars(t.priceE4),
              volume: t.volume,
              value: Math.round(t.priceE4 * t.volume) / 10_000,
              buyerBrokerId: t.buyerBrokerId,
              sellerBrokerId: t.sellerBrokerId,
              conditionCodes: t.conditionCodes,
            })),
            paging: {
              page,
              pageSize,
              total: all.length,
              next: more ? `${url.pathname}?date=${date}&page=${page + 1}&pageSize=${pageSize}` : null,
            },
          });
        }),
      },
    ],
  });
}
