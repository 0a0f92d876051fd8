/**
 * Values drawn from the portal's domain (issue 34), not from any route's schema: what people, spreadsheets
 * and other programs put in a field of each kind (money, whole numbers, years, dates, the tickers of every
 * exchange, email addresses, free text, long lists), and for each kind the rule the spec's words give for
 * what may be stored. The fuzz suite (backend/fuzz.cases.ts, domain-routes.ts) sends them: each must be
 * refused with a 4xx and nothing stored, or stored as a value its rule allows. The rules are written here
 * from the spec, never from the schemas, so a schema or a service rule that is too lax shows as a stored
 * value its rule refuses (or a 5xx). Pure: no I/O.
 */

/** Why a stored value breaks its rule; undefined when the rule allows it. */
export type Verdict = string | undefined;
/** A row as read back from the database (or a route's GET). */
export type Row = Record<string, unknown>;

export const show = (v: unknown): string => {
  if (Array.isArray(v) && v.length > 3) return `[${v.length} x ${show(v[0])}]`;
  const text = typeof v === 'string' ? JSON.stringify(v) : (JSON.stringify(v) ?? String(v));
  return text.length > 48 ? `${text.slice(0, 40)}...(${text.length})` : text;
};

// ------------------------------------------------------------------------------------------- numbers

/** Money and quantities as typed, pasted or sent by a program: signs, extremes, text forms and blanks. */
export const NUMBERS: readonly unknown[] = [
  -1,
  -0.01,
  0,
  0.001,
  1.5,
  1e15,
  1e308,
  'NaN',
  '-5',
  '1,234.50',
  '',
];
/** Counts and limits (auto-sends an hour, a page of a PDF): negative, fractional, past 32 bits, as text. */
export const WHOLE_NUMBERS: readonly unknown[] = [-1, 0, 7, 1.5, 2 ** 31, 1e308, '10', 'NaN', ''];
/** A year as typed: the first year of polling. */
export const YEARS: readonly unknown[] = [2025, 1989, 9999, 0, -1, 2025.5, 1e308, '2025', 'NaN', ''];

/**
 * The number a person means by a value: text without its thousands separators, currency sign and spaces;
 * null for a blank (a cleared field); NaN for what is no number.
 */
export function meantNumber(v: unknown): number | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number') return v;
  if (typeof v !== 'string') return NaN;
  const text = v.replace(/[,\s$]/g, '');
  return text === '' ? null : Number(text);
}

export interface NumberRule {
  /** The least value the domain has (a price or a count is never negative). */
  min?: number;
  /** More than `min` (an invoice of $0 is no invoice). */
  aboveMin?: boolean;
  whole?: boolean;
  /** The decimal places the value is kept to (a stored value within half a unit of them is the same). */
  places?: number;
  /** What a blank means: cleared (null), zero, or nothing (it must be refused). */
  blank: 'null' | 'zero' | 'refused';
}

/** Whether `stored` is what the rule allows for `sent`: the number meant, in the domain's range. */
export function numberVerdict(rule: NumberRule, stored: unknown, sent: unknown): Verdict {
  const meant = meantNumber(sent);
  const got = stored === null || stored === undefined ? null : Number(stored);
  const as = `stored as ${show(stored)}`;
  if (meant === null) {
    if (rule.blank === 'refused') return `a blank is no value here, ${as}`;
    const want = rule.blank === 'null' ? null : 0;
    return got === want ? undefined : `a blank ${as}, not ${String(want)}`;
  }
  if (!Number.isFinite(meant)) return `${show(sent)} is not a number, ${as}`;
  const min = rule.min ?? -Infinity;
  if (meant < min || (rule.aboveMin && meant === min))
    return `${show(sent)} is ${rule.aboveMin ? 'not more than' : 'less than'} ${min}, ${as}`;
  if (rule.whole && !Number.isInteger(meant)) return `${show(sent)} is not a whole number, ${as}`;
  const tolerance = 0.5 * 10 ** -(rule.places ?? 0);
  if (got === null || !Number.isFinite(got) || Math.abs(got - meant) > tolerance * 1.0001)
    return `${show(sent)} ${as}`;
  // Kept to fewer places, what was more than the least may be stored as the least (0.001 as 0 cents).
  if (rule.aboveMin && got <= min) return `${show(sent)} ${as}, not more than ${min}`;
  return undefined;
}

// --------------------------------------------------------------------------------------------- dates

/** The years a date of the business can fall in: a release, a billing date, a report's day. */
export const REAL_YEARS = { from: 1900, to: 2100 } as const;

/** Dates as people and programs write them, each with the day it means (null: none; '': a blank). */
const DATE_MEANINGS: ReadonlyArray<[string, string | null]> = [
  ['2025-03-22', '2025-03-22'],
  ['22 Mar 2025 8:50 AM', '2025-03-22'],
  ['2025-03-22T08:50:00+11:00', '2025-03-22'],
  ['9999-12-31', '9999-12-31'],
  ['22 Mar 9999 8:50 AM', '9999-03-22'],
  ['0000-01-01', '0000-01-01'],
  ['22 Mar 0000 8:50 AM', '0000-03-22'],
  ['0001-01-01', '0001-01-01'],
  ['+275760-09-13T00:00:00Z', '275760-09-13'],
  ['2025-02-30', null],
  ['31 Feb 2025 8:50 AM', null],
  ['22 Mar 2025 25:00', null],
  ['NaN', null],
  ['', ''],
  ['   ', ''],
];
const DATE_MEANING = new Map(DATE_MEANINGS);
export const DATES: readonly string[] = DATE_MEANINGS.map(([text]) => text);

/**
 * Whether `stored` (the day it is in Sydney, 'YYYY-MM-DD', ' BC' after a year before 1; null when none) is
 * what the rule allows for `sent`: the day meant, a real one; a blank clears the field, keeps what was
 * there, stands for a default (any real day), or must be refused.
 */
export function dateVerdict(
  blank: 'null' | 'kept' | 'default' | 'refused',
  stored: unknown,
  sent: unknown,
  before?: unknown,
): Verdict {
  const meant = typeof sent === 'string' ? DATE_MEANING.get(sent) : null;
  if (meant === undefined) return `no meaning is known for ${show(sent)}`;
  const as = `stored as ${show(stored)}`;
  if (meant === '') {
    if (blank === 'refused') return `a blank is no date here, ${as}`;
    if (blank === 'default') return realDay(stored) ? undefined : `a blank defaulted to no real day, ${as}`;
    const want = blank === 'null' ? null : before;
    return stored === want || (want === undefined && stored === null) ? undefined : `a blank ${as}`;
  }
  if (meant === null) return `${show(sent)} is not a date, ${as}`;
  if (!realDay(meant)) return `${show(sent)} is in year ${yearOf(meant)}, no real date, ${as}`;
  return stored === meant ? undefined : `${show(sent)} means ${meant}, ${as}`;
}

const yearOf = (day: string) => Number(day.slice(0, day.indexOf('-', 1)));
const realDay = (day: unknown) =>
  typeof day === 'string' &&
  /^\d+-\d{2}-\d{2}$/.test(day) &&
  yearOf(day) >= REAL_YEARS.from &&
  yearOf(day) <= REAL_YEARS.to;

// ------------------------------------------------------------------------------------------- tickers

/**
 * A ticker as each exchange's people and data vendors write it, around a stem unique to the run (so an
 * accepted one takes no real company's ticker): bare, lower case, padded, with an exchange, a vendor's
 * suffix (`.ax`, `.HK`, `BRK.B`'s class), two colons; and the literal forms of other markets.
 */
export function tickerForms(stem: string): string[] {
  const lower = stem.toLowerCase();
  return [
    stem,
    lower,
    ` ${stem} `,
    `${stem}:ASX`,
    `${lower}.ax`,
    `${stem}.B`,
    `${stem}:ASX:ASX`,
    'bhp.ax',
    '0700.HK',
    'BRK.B',
    'AAPL:NASDAQ',
    'AB',
    'X'.repeat(200),
    '\uff22\uff28\uff30',
    '',
    '   ',
  ];
}

/**
 * Fewer of those forms, one of each shape (valid, a vendor's suffix, an exchange, another market's, too
 * short, blank), for a route where each accepted case stores a whole order or stock.
 */
export const someTickerForms = (stem: string): string[] => [
  stem,
  `${stem.toLowerCase()}.ax`,
  `${stem}:ASX`,
  '0700.HK',
  'BRK.B',
  'AAPL:NASDAQ',
  'AB',
  '',
  '   ',
];

/** The forms that name an existing stock (its own, bare and in lower case) and those of other markets. */
export function tickerReferences(stock: { ticker: string; exchange: string }): string[] {
  return [
    `${stock.ticker}:${stock.exchange}`,
    stock.ticker.toLowerCase(),
    ` ${stock.ticker} `,
    `${stock.ticker.toLowerCase()}.ax`,
    `${stock.ticker}.AX`,
    `${stock.ticker}:${stock.exchange}:${stock.exchange}`,
    'BHP',
    'BHP:ASX',
    'bhp.ax',
    '0700.HK',
    'BRK.B',
    'AAPL:NASDAQ',
    '',
    '   ',
  ];
}

/** Spec section 5: at least 3 characters after trimming, letters and digits only; stored upper-cased. */
export function tickerVerdict(stored: unknown, sent: unknown): Verdict {
  const text = typeof sent === 'string' ? sent.trim() : '';
  const as = `stored as ${show(stored)}`;
  if (!/^[A-Za-z0-9]{3,}$/.test(text)) return `${show(sent)} is no ticker (spec section 5), ${as}`;
  return stored === text.toUpperCase() ? undefined : `${show(sent)} ${as}, not ${text.toUpperCase()}`;
}

/**
 * The stock a text names as the spec writes one (section 1: ticker:exchange, the exchange ASX by default),
 * in any case and padded; null when it names none (a vendor's suffix, two colons, a blank).
 */
export function namedStock(text: unknown): string | null {
  if (typeof text !== 'string') return null;
  const parts = text.trim().toUpperCase().split(':');
  if (parts.length > 2 || !parts.every((p) => /^[A-Z0-9]+$/.test(p))) return null;
  return `${parts[0]}:${parts[1] ?? 'ASX'}`;
}

/** Whether the stock a reference was stored as (its combinedTicker) is the one the text names. */
export function referenceVerdict(storedCombinedTicker: unknown, sent: unknown): Verdict {
  const named = namedStock(sent);
  if (!named) return `${show(sent)} names no stock, stored as ${show(storedCombinedTicker)}`;
  return storedCombinedTicker === named
    ? undefined
    : `${show(sent)} names ${named}, stored as ${show(storedCombinedTicker)}`;
}

// -------------------------------------------------------------------------------------- email, text

/** Addresses as typed and pasted: padded, upper case, lists, broken ones, a header injection, too long. */
export function emailForms(local: string): string[] {
  return [
    `${local}@example.com`,
    ` ${local}@example.com `,
    `${local.toUpperCase()}@EXAMPLE.COM`,
    `${local}@example.com, ${local}.2@example.com`,
    `${local}@example.com; ${local}.3@example.com`,
    'not-an-email',
    `${local}@example`,
    `${local}@@example.com`,
    `${local} x@example.com`,
    `${local}@example.com\r\nBcc: victim@example.com`,
    `${'a'.repeat(250)}@example.com`,
    '',
    '   ',
  ];
}

/** An address as RFC 5321 and 5322 allow one in practice: one @, a dotted domain, no spaces, 254 at most. */
const ADDRESS = /^[^\s@,;<>"()[\]\\]+@[^\s@,;<>"()[\]\\]+\.[^\s@,;<>"()[\]\\]+$/;
export const isAddress = (text: string) => text.length <= 254 && ADDRESS.test(text);

/**
 * Whether the stored text is what the rule allows for `sent`: the address (or, for a list field, the
 * addresses split on commas or semicolons, spec section 9) as sent, each a real address; case aside.
 */
export function emailVerdict(
  rule: { list: boolean; blank: boolean },
  stored: unknown,
  sent: unknown,
): Verdict {
  const text = typeof sent === 'string' ? sent.trim() : '';
  const as = `stored as ${show(stored)}`;
  const addresses = (rule.list ? text.split(/[;,]/) : [text]).map((a) => a.trim()).filter(Boolean);
  if (!addresses.length) return rule.blank && stored === '' ? undefined : `a blank address ${as}`;
  const bad = addresses.find((a) => !isAddress(a));
  if (bad !== undefined) return `${show(bad)} is no email address, ${as}`;
  const same = (a: string) =>
    a
      .split(/[;,]/)
      .map((x) => x.trim().toLowerCase())
      .join(',');
  return typeof stored === 'string' && same(stored) === same(text) ? undefined : `${show(sent)} ${as}`;
}

/** Free text: blanks of every kind, and long text within the gateway's body limit. */
export const TEXTS: readonly string[] = ['', ' \t\r\n ', 'x'.repeat(5_000), 'x'.repeat(40_000)];

/** Whether the stored text is the text sent (trimmed or not, never cut short); required text is never blank. */
export function textVerdict(required: boolean, stored: unknown, sent: unknown): Verdict {
  const text = typeof sent === 'string' ? sent : '';
  if (required && !text.trim()) return `a blank is no value here, stored as ${show(stored)}`;
  return stored === text || stored === text.trim()
    ? undefined
    : `${show(sent)} stored as ${show(stored)}${typeof stored === 'string' && stored.length < text.trim().length ? ' (cut short)' : ''}`;
}

/** Links as pasted: a page, a script, a data URL, a bare word, a scheme with no host. */
export const LINKS: readonly string[] = [
  'https://ir.example.com/video',
  'javascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'www.example.com/video',
  'http://',
  '',
];

/** A link the widget may render: http(s) with a host; blank when none. */
export function linkVerdict(stored: unknown, sent: unknown): Verdict {
  const text = typeof sent === 'string' ? sent.trim() : '';
  if (text === '') return stored === '' || stored === null ? undefined : `a blank stored as ${show(stored)}`;
  let ok = false;
  try {
    ok = /^https?:$/.test(new URL(text).protocol) && !!new URL(text).host;
  } catch {
    ok = false;
  }
  if (!ok) return `${show(sent)} is no web link, stored as ${show(stored)}`;
  return stored === text ? undefined : `${show(sent)} stored as ${show(stored)}`;
}

// -------------------------------------------------------------------------------------------- lists

/**
 * 10,000 copies of `element`, or as many as fit in `maxBytes` of JSON with `room` left for the rest of
 * the body: a long list within the gateway's body limit.
 */
export function longList<T>(element: T, maxBytes: number, room = 1024): T[] {
  const size = JSON.stringify(element).length + 1;
  return Array.from({ length: Math.min(10_000, Math.floor((maxBytes - room) / size)) }, () => element);
}
