import type { CommentFlag } from '@irp/proto';

/**
 * Finding other listed companies in an investor's comment: by an ASX code written as such (ASX:XYZ,
 * XYZ.AX), by a known ticker written as an uppercase word (BHP), or by a company's name (Rio Tinto).
 */

export interface ListedCompany {
  ticker: string;
  /** Matched whole; also without a legal suffix (Limited, Group) when two or more distinctive words remain. */
  companyName: string;
  /** Other names, each safe to match on its own ("Telstra", not "Origin"). */
  aliases?: string[];
}

/** The one listed-company rule: its flag's reason names the company (`Names another listed company: ...`). */
export const LISTED_COMPANY_RULE = {
  id: 'listed-company',
  category: 'listed-company',
  reason: 'Names another listed company',
} as const;

/**
 * Well-known ASX companies, recognised whichever stocks the portal serves. A name that is also an ordinary
 * word or place (Origin, Macquarie, Cochlear, Goodman, Pilbara) has no alias: only the qualified name
 * counts ("Origin Energy").
 */
export const KNOWN_LISTED_COMPANIES: readonly ListedCompany[] = [
  { ticker: 'BHP', companyName: 'BHP Group', aliases: ['BHP', 'BHP Billiton'] },
  { ticker: 'RIO', companyName: 'Rio Tinto' },
  {
    ticker: 'CBA',
    companyName: 'Commonwealth Bank of Australia',
    aliases: ['Commonwealth Bank', 'CommBank', 'CBA'],
  },
  { ticker: 'CSL', companyName: 'CSL Limited', aliases: ['CSL'] },
  {
    ticker: 'FMG',
    companyName: 'Fortescue',
    aliases: ['Fortescue', 'Fortescue Metals', 'Fortescue Metals Group'],
  },
  {
    ticker: 'WDS',
    companyName: 'Woodside Energy Group',
    aliases: ['Woodside', 'Woodside Petroleum'],
  },
  { ticker: 'TLS', companyName: 'Telstra Group', aliases: ['Telstra'] },
  { ticker: 'WES', companyName: 'Wesfarmers', aliases: ['Wesfarmers'] },
  { ticker: 'WBC', companyName: 'Westpac Banking Corporation', aliases: ['Westpac'] },
  { ticker: 'NAB', companyName: 'National Australia Bank' },
  { ticker: 'ANZ', companyName: 'ANZ Group Holdings', aliases: ['ANZ', 'ANZ Bank'] },
  { ticker: 'MQG', companyName: 'Macquarie Group', aliases: ['Macquarie Bank'] },
  { ticker: 'WOW', companyName: 'Woolworths Group', aliases: ['Woolworths', 'Woolies'] },
  { ticker: 'COL', companyName: 'Coles Group', aliases: ['Coles'] },
  { ticker: 'TCL', companyName: 'Transurban Group', aliases: ['Transurban'] },
  { ticker: 'GMG', companyName: 'Goodman Group' },
  { ticker: 'STO', companyName: 'Santos Limited', aliases: ['Santos'] },
  { ticker: 'NEM', companyName: 'Newmont Corporation', aliases: ['Newmont'] },
  { ticker: 'NST', companyName: 'Northern Star Resources', aliases: ['Northern Star'] },
  { ticker: 'PLS', companyName: 'Pilbara Minerals' },
  // "Mineral Resources" is also the JORC term in every mining report: only the qualified name or MinRes.
  { ticker: 'MIN', companyName: 'Mineral Resources Limited', aliases: ['Mineral Resources Ltd', 'MinRes'] },
  { ticker: 'QAN', companyName: 'Qantas Airways', aliases: ['Qantas'] },
  { ticker: 'ORG', companyName: 'Origin Energy' },
  { ticker: 'AGL', companyName: 'AGL Energy', aliases: ['AGL'] },
  { ticker: 'SUN', companyName: 'Suncorp Group', aliases: ['Suncorp'] },
  { ticker: 'QBE', companyName: 'QBE Insurance Group', aliases: ['QBE'] },
  { ticker: 'IAG', companyName: 'Insurance Australia Group', aliases: ['IAG'] },
  { ticker: 'ALL', companyName: 'Aristocrat Leisure', aliases: ['Aristocrat'] },
  { ticker: 'XRO', companyName: 'Xero', aliases: ['Xero'] },
  { ticker: 'WTC', companyName: 'WiseTech Global', aliases: ['WiseTech'] },
  { ticker: 'REA', companyName: 'REA Group' },
  { ticker: 'CPU', companyName: 'Computershare', aliases: ['Computershare'] },
  { ticker: 'BXB', companyName: 'Brambles', aliases: ['Brambles'] },
  { ticker: 'AMC', companyName: 'Amcor', aliases: ['Amcor'] },
  { ticker: 'S32', companyName: 'South32', aliases: ['South32', 'South 32'] },
  { ticker: 'LYC', companyName: 'Lynas Rare Earths', aliases: ['Lynas'] },
  { ticker: 'IGO', companyName: 'IGO Limited', aliases: ['IGO'] },
  { ticker: 'SHL', companyName: 'Sonic Healthcare' },
  { ticker: 'RHC', companyName: 'Ramsay Health Care', aliases: ['Ramsay Health'] },
  { ticker: 'RMD', companyName: 'ResMed', aliases: ['ResMed'] },
  { ticker: 'COH', companyName: 'Cochlear Limited', aliases: ['Cochlear Ltd'] },
  { ticker: 'JBH', companyName: 'JB Hi-Fi', aliases: ['JB HiFi'] },
  { ticker: 'TWE', companyName: 'Treasury Wine Estates', aliases: ['Treasury Wine', 'Treasury Wines'] },
  { ticker: 'MPL', companyName: 'Medibank Private', aliases: ['Medibank'] },
  { ticker: 'SGP', companyName: 'Stockland', aliases: ['Stockland'] },
  { ticker: 'EVN', companyName: 'Evolution Mining' },
  { ticker: 'ORI', companyName: 'Orica', aliases: ['Orica'] },
];

/**
 * Uppercase words that are never read as a bare ticker: words written in capitals for emphasis that are
 * also codes (ALL, WOW, PLS for "please"), and the market's jargon and abbreviations, in case a stock
 * the portal serves has one as its code. Such a company is still found by its name or as ASX:XYZ.
 */
export const TICKER_STOP_WORDS: ReadonlySet<string> = new Set([
  // capitals for emphasis, chat, and computing words that are codes
  ...['ALL', 'AND', 'ANY', 'ARE', 'BIG', 'BUY', 'CAN', 'FOR', 'GET', 'HAS', 'HOW', 'NEW', 'NOT', 'NOW'],
  ...['ONE', 'OUT', 'PLS', 'PLZ', 'SELL', 'THE', 'TOP', 'TWO', 'WHO', 'WHY', 'WOW', 'YES', 'OMG', 'LOL'],
  ...['FYI', 'ASAP', 'MIN', 'MAX', 'CPU', 'TLS', 'AMC', 'SUN', 'ORG', 'PDF', 'FAQ', 'URL', 'APP'],
  // the market's words
  ...['ASX', 'AGM', 'EGM', 'CEO', 'CFO', 'COO', 'CTO', 'EPS', 'DPS', 'NPAT', 'NTA', 'NAV', 'EBIT'],
  ...['EBITDA', 'FY', 'HY', 'YTD', 'YOY', 'ROE', 'ROI', 'ROIC', 'IPO', 'ESG', 'USD', 'AUD', 'NZD'],
  ...['GST', 'ATO', 'ASIC', 'ACCC', 'FIRB', 'JORC', 'DFS', 'PFS', 'BFS', 'FID', 'CAPEX', 'OPEX', 'AISC'],
  ...['LOI', 'MOU', 'SPP', 'DRP', 'NBIO', 'ETF', 'LIC', 'REIT', 'AUM', 'CPI', 'RBA', 'GDP', 'LNG', 'ARR'],
  ...['SAAS', 'USA', 'UK', 'NZ', 'EU', 'Q1', 'Q2', 'Q3', 'Q4', 'H1', 'H2', 'PE', 'EV', 'IR', 'PR'],
]);

/** Two-or-more-word names that are ordinary phrases once the legal suffix is gone ("mineral resources"). */
const GENERIC_NAMES: ReadonlySet<string> = new Set([
  'mineral resources',
  'energy resources',
  'gold mining',
  'rare earths',
  'critical minerals',
]);

const LEGAL_SUFFIX =
  /\s+(?:limited|ltd\.?|pty|nl|inc\.?|incorporated|plc|corporation|corp\.?|group|holdings)$/i;

const key = (name: string) => name.toLowerCase().replace(/\s+/g, ' ').trim();
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The names an investor may use for a company: the full name, its shorter forms, its aliases. */
function namesOf(company: ListedCompany): string[] {
  const names = [company.companyName];
  let name = company.companyName.trim();
  while (LEGAL_SUFFIX.test(name)) {
    name = name.replace(LEGAL_SUFFIX, '');
    if (name.split(/\s+/).length < 2 || GENERIC_NAMES.has(key(name))) break;
    names.push(name);
  }
  return [...names, ...(company.aliases ?? [])].filter((n) => n.trim().length >= 3);
}

interface Named {
  ticker: string;
  /** What the flag says: `BHP Group (BHP)`. */
  label: string;
}

/** Where in a comment a company is named. */
interface Naming extends Named {
  start: number;
  end: number;
  text: string;
}

/** One name of a company, tried where a word of the comment starts (sticky), in any case. */
interface NamePattern {
  pattern: RegExp;
  named: Named;
}

/**
 * The names and tickers of one list of companies, compiled once. Names are looked up by their first word
 * rather than tried as one alternation at every character: a portal serves hundreds of stocks.
 */
interface CompanyMatcher {
  byTicker: Map<string, Named>;
  /** By the name's first word in lowercase; the longest name first. */
  namesByFirstWord: Map<string, NamePattern[]>;
  /** Tickers that count as an uppercase word on its own. */
  bareTickers: ReadonlySet<string>;
}

const WORD = /[A-Za-z0-9]+/g;

/**
 * ASX:XYZ, ASX: XYZ, (ASX:XYZ), asx:xyz, XYZ.AX: a code written as one, known or not. After a space the code
 * must be in capitals, so "the ASX: the rules say" names nothing.
 */
const EXCHANGE_CODE =
  /\b[Aa][Ss][Xx]\s*:(?:([A-Za-z0-9]{3,6})|\s+([A-Z0-9]{3,6}))\b|\b([A-Za-z0-9]{3,6})\.[Aa][Xx]\b/g;

/** Mostly capitals: the comment is shouted, and an uppercase word there is no sign of a ticker. */
const isShouted = (text: string) => {
  const letters = text.replace(/[^A-Za-z]/g, '');
  return letters.length >= 12 && letters.replace(/[^A-Z]/g, '').length / letters.length > 0.6;
};

/** An uppercase word on its own: not part of a handle, a path, a domain, or ASX:XYZ (read apart). */
const standsAlone = (text: string, start: number, end: number) =>
  !/[\w@./:]/.test(text[start - 1] ?? ' ') && !/^(?:\w|\.[A-Za-z0-9])/.test(text.slice(end, end + 2));

function compile(companies: readonly ListedCompany[]): CompanyMatcher {
  const byTicker = new Map<string, Named>();
  const byName = new Map<string, { name: string; named: Named }>();
  for (const company of companies) {
    const ticker = company.ticker.trim().toUpperCase();
    if (!ticker) continue;
    const named = byTicker.get(ticker) ?? { ticker, label: `${company.companyName.trim()} (${ticker})` };
    byTicker.set(ticker, named);
    for (const name of namesOf(company)) if (!byName.has(key(name))) byName.set(key(name), { name, named });
  }
  const namesByFirstWord = new Map<string, NamePattern[]>();
  for (const [nameKey, { name, named }] of [...byName].sort(([a], [b]) => b.length - a.length)) {
    const first = /^[a-z0-9]+/.exec(nameKey)?.[0];
    if (!first) continue;
    const source = escape(name.trim()).replace(/\s+/g, '\\s+');
    const patterns = namesByFirstWord.get(first) ?? [];
    patterns.push({ pattern: new RegExp(`${source}(?!\\w)`, 'iy'), named });
    namesByFirstWord.set(first, patterns);
  }
  const bareTickers = new Set(
    [...byTicker.keys()].filter((t) => /^[A-Z0-9]+$/.test(t) && /[A-Z]/.test(t) && !TICKER_STOP_WORDS.has(t)),
  );
  return { byTicker, namesByFirstWord, bareTickers };
}

const compiled = new WeakMap<readonly ListedCompany[], CompanyMatcher>();
const builtIn = compile(KNOWN_LISTED_COMPANIES);
/** The stocks' own names, by ticker and name; a portal has a few hundred stocks at most. */
const ownCompiled = new Map<string, CompanyMatcher>();
const OWN_CACHE_SIZE = 1000;

function ownMatcherFor(ticker: string, companyName: string): CompanyMatcher {
  const cacheKey = `${ticker}\n${companyName}`;
  let matcher = ownCompiled.get(cacheKey);
  if (!matcher) {
    if (ownCompiled.size >= OWN_CACHE_SIZE) ownCompiled.clear();
    matcher = compile([{ ticker, companyName }]);
    ownCompiled.set(cacheKey, matcher);
  }
  return matcher;
}

/** The matcher of the portal's companies with the known ones, cached by the list it was given. */
function matcherFor(listedCompanies: readonly ListedCompany[]): CompanyMatcher {
  if (!listedCompanies.length) return builtIn;
  let matcher = compiled.get(listedCompanies);
  if (!matcher) {
    matcher = compile([...listedCompanies, ...KNOWN_LISTED_COMPANIES]);
    compiled.set(listedCompanies, matcher);
  }
  return matcher;
}

/** Every place the list's companies (and any ASX code) are named, in the order they are named. */
function namings(text: string, matcher: CompanyMatcher): Naming[] {
  const found: Naming[] = [];
  const add = (start: number, words: string, named: Named) =>
    found.push({ ...named, start, end: start + words.length, text: words });
  for (const m of text.matchAll(EXCHANGE_CODE)) {
    const ticker = (m[1] ?? m[2] ?? m[3]).toUpperCase();
    add(m.index ?? 0, m[0], matcher.byTicker.get(ticker) ?? { ticker, label: `ASX:${ticker}` });
  }
  const readTickers = !isShouted(text);
  // A word inside a name already found starts nothing: "Woodside Energy Group" is one naming.
  let namedUntil = 0;
  for (const word of text.matchAll(WORD)) {
    const start = word.index ?? 0;
    if (start < namedUntil) continue;
    const name = matcher.namesByFirstWord.get(word[0].toLowerCase())?.find(({ pattern }) => {
      pattern.lastIndex = start;
      return pattern.test(text);
    });
    if (name) {
      namedUntil = name.pattern.lastIndex;
      add(start, text.slice(start, namedUntil), name.named);
      continue;
    }
    const end = start + word[0].length;
    const named = readTickers && matcher.bareTickers.has(word[0]) ? matcher.byTicker.get(word[0]) : undefined;
    if (named && standsAlone(text, start, end)) add(start, word[0], named);
  }
  return found.sort((a, b) => a.start - b.start);
}

/**
 * The flags for the other listed companies a comment names, one per company, in the order they first
 * appear. The stock's own company is never one of them, by its ticker or its names.
 */
export function listedCompanyFlags(
  text: string,
  own: { ticker: string; companyName: string },
  listedCompanies: readonly ListedCompany[],
): CommentFlag[] {
  const ownTicker = own.ticker.trim().toUpperCase();
  // Where the stock itself is named: a longer own name hides a shorter other one inside it.
  const ownNames = namings(text, ownMatcherFor(ownTicker, own.companyName)).filter(
    (n) => n.ticker === ownTicker,
  );
  const isOwn = (n: Naming) =>
    n.ticker === ownTicker || ownNames.some((o) => n.start < o.end && o.start < n.end);
  const flags = new Map<string, CommentFlag>();
  for (const naming of namings(text, matcherFor(listedCompanies))) {
    if (isOwn(naming) || flags.has(naming.ticker)) continue;
    flags.set(naming.ticker, {
      rule: LISTED_COMPANY_RULE.id,
      category: LISTED_COMPANY_RULE.category,
      reason: `${LISTED_COMPANY_RULE.reason}: ${naming.label}`,
      match: naming.text,
    });
  }
  return [...flags.values()];
}
