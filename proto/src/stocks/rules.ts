import type { ExchangeDto } from './records';

/**
 * Exchanges, tickers and the other pure stock rules both ends share. No zod here: the web app bundles
 * every module it imports from whole, and these rules need no schema.
 */

export const Exchange = { ASX: 'ASX', LSE: 'LSE', FSE: 'FSE', OTC: 'OTC' } as const;
export type Exchange = (typeof Exchange)[keyof typeof Exchange];
export const EXCHANGES: readonly Exchange[] = Object.values(Exchange);
export const DEFAULT_EXCHANGE: Exchange = Exchange.ASX;
/** Exchanges whose stocks carry an ISIN on the Config tab. */
export const ISIN_EXCHANGES: readonly Exchange[] = [Exchange.LSE, Exchange.FSE];

export const EXCHANGE_DIRECTORY: readonly ExchangeDto[] = [
  {
    code: Exchange.ASX,
    name: 'Australian Securities Exchange',
    viewUrlTemplate: 'https://www.asx.com.au/markets/trade-our-cash-market/overview/equities/{ticker}',
  },
  {
    code: Exchange.LSE,
    name: 'London Stock Exchange',
    viewUrlTemplate: 'https://www.londonstockexchange.com/stock/{ticker}/company-page',
  },
  {
    code: Exchange.FSE,
    name: 'Frankfurt Stock Exchange',
    viewUrlTemplate: 'https://www.boerse-frankfurt.de/equity/{ticker}',
  },
  {
    code: Exchange.OTC,
    name: 'OTC Markets',
    viewUrlTemplate: 'https://www.otcmarkets.com/stock/{ticker}/overview',
  },
];

export const INVALID_TICKER_MESSAGE = 'Please define a valid ticker';
export const MIN_TICKER_LENGTH = 3;

/** Spec section 5: non-empty, at least 3 characters after trimming, letters and digits only. */
export function isValidTicker(ticker: string | null | undefined): boolean {
  const t = (ticker ?? '').trim();
  return t.length >= MIN_TICKER_LENGTH && /^[A-Za-z0-9]+$/.test(t);
}

/** Tickers are stored and shown upper-cased. */
export const normaliseTicker = (ticker: string): string => ticker.trim().toUpperCase();

/** `TICKER:EXCHANGE`, always with the exchange. */
export const combinedTickerOf = (ticker: string, exchange: string): string =>
  `${normaliseTicker(ticker)}:${exchange.trim().toUpperCase()}`;

/** How a ticker is shown in lists: ASX tickers bare, others with the exchange suffix (spec section 2). */
export const displayTicker = (ticker: string, exchange: string): string =>
  exchange === Exchange.ASX ? ticker : `${ticker}:${exchange}`;

/**
 * Parses `TICKER:EXCHANGE` (or a bare `TICKER`, which means ASX). Returns null when the text cannot name
 * a stock (empty parts, more than one colon).
 */
export function parseCombinedTicker(text: string): { ticker: string; exchange: string } | null {
  const parts = text.trim().split(':');
  if (parts.length > 2) return null;
  const ticker = normaliseTicker(parts[0] ?? '');
  const exchange = (parts[1] ?? DEFAULT_EXCHANGE).trim().toUpperCase();
  if (!ticker || !exchange) return null;
  return { ticker, exchange };
}

/** Longest API key; a key is letters, digits, `-` and `_` (the keys handed out are 32 hex digits). */
export const MAX_API_KEY_LENGTH = 100;
const API_KEY_FORM = /^[A-Za-z0-9_-]+$/;

/**
 * Whether text can be an API key at all. The widget API refuses anything else as an unknown key without
 * asking the stocks service; the stocks service refuses to save a key of another form.
 */
export const isWellFormedApiKey = (key: string): boolean =>
  key.length > 0 && key.length <= MAX_API_KEY_LENGTH && API_KEY_FORM.test(key);

/** A recorded referer is the page's origin and path (no query, fragment or credentials), cut to this. */
export const MAX_REFERER_URL_LENGTH = 200;
/**
 * A stock keeps at most this many referer pages. Once it has them, a hit from a page not yet recorded is
 * counted under the one OTHER_REFERERS row, so a flood of made-up Referer headers cannot grow the table.
 */
export const MAX_REFERERS_PER_STOCK = 200;
export const OTHER_REFERERS = '(other)';
/** The all-stocks referers report lists this many of each stock's most recently seen pages. */
export const MAX_REFERERS_PER_STOCK_IN_REPORT = 50;

/** An email address as the portal accepts it: one local part, one @, a domain with a dot; at most 254 characters. */
export const isEmailAddress = (value: string): boolean =>
  value.length <= 254 && /^[^\s@,;<>"()[\]\\]+@[^\s@,;<>"()[\]\\]+\.[^\s@,;<>"()[\]\\]+$/.test(value);

/** Confirmation and notification email lists are split on commas or semicolons (spec section 9). */
export const splitEmailList = (value: string | null | undefined): string[] =>
  (value ?? '')
    .split(/[;,]/)
    .map((e) => e.trim())
    .filter(Boolean);

/** Spec section 9: the word appendix followed by 3b or 3y. Inserted by the Config tab's button. */
export const STANDARD_AUTO_SEND_FILTER = 'appendix\\s*3[by]';

/**
 * The response header of GET /api/admin/stocks naming the composing services that did not answer, comma
 * separated ('email-marketing, invoicing'); empty when every one answered. `unavailableServicesOf` reads it.
 */
export const STOCK_LIST_UNAVAILABLE_HEADER = 'x-unavailable-services';

/** The service names of a STOCK_LIST_UNAVAILABLE_HEADER value (absent or empty: none). */
export const unavailableServicesOf = (value: string | null | undefined): string[] =>
  (value ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
