import { mockAnnouncementsOfYear } from '@irp/announcements/dist/sources/mock.source';
import { asxTradingDaysBetween, isAsxTradingDay, previousAsxTradingDay, sydneyDayOf } from '@irp/proto';

/**
 * The simulated market of the market-data stand-in: deterministic (every figure is seeded from the code and
 * the day, so the same day always has the same trades, whichever process or order asks), ASX trading days
 * only, prices as a random walk from each code's base price, intraday trades between named brokers with
 * ticker-specific counts and sizes, and one demo pattern: a broker accumulating BHP in the sessions before
 * each of its price-sensitive announcements (the announcement generator the ASX stand-in serves), followed
 * by a move on the day.
 */

// FNV-1a, then mulberry32: tiny, fast and the same on every machine.
function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const gaussian = (random: () => number) => {
  const u = Math.max(random(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
};

/** The brokers of the simulated market (ids as the provider numbers them), with their share of the flow. */
export const BROKERS: ReadonlyArray<{ id: number; name: string }> = [
  'Macquarie Equities',
  'UBS Securities Australia',
  'Morgan Stanley Australia',
  'J.P. Morgan Securities',
  'Goldman Sachs Australia',
  'Citigroup Global Markets',
  'Merrill Lynch Equities',
  'Credit Suisse Equities',
  'Deutsche Securities',
  'CommSec',
  'Bell Potter Securities',
  'Morgans Financial',
  'Ord Minnett',
  'Shaw and Partners',
  'Canaccord Genuity',
  'Euroz Hartleys',
  'Wilsons Advisory',
  'Taylor Collison',
  'Baillieu Holst',
  'Patersons Securities',
  'Argonaut Securities',
  'Evans and Partners',
  'Bourse Securities',
  'CMC Markets Stockbroking',
  'Interactive Brokers Australia',
  'Nabtrade',
  'Westpac Online Investing',
  'Selfwealth',
  'Openmarkets Australia',
  'Instinet Australia',
  'Virtu ITG Australia',
  'Liquidnet Australia',
  'Barrenjoey Markets',
  'Jefferies Australia',
  'Jarden Australia',
  'Petra Capital',
  'Tasman Ridge Securities',
  'Pinnacle Point Brokers',
  'Southern Cross Equities',
  'Harbour Lane Capital',
  'Coral Bay Securities',
  'Blackwattle Stockbroking',
  'Ironbark Trading',
  'Redgum Securities',
  'Karri Capital Markets',
  'Wattle Street Brokers',
  'Sandstone Securities',
  'Kookaburra Equities',
  'Lighthouse Securities',
  'Meridian Stockbroking',
  'Northbridge Capital',
  'Eastwood Equities',
  'Westgate Securities',
  'Riverbend Brokers',
  'Summit Equities',
  'Bluewater Capital',
  'Granite Peak Securities',
  'Silverleaf Trading',
  'Outback Securities',
  'Coastline Brokers',
].map((name, i) => ({ id: 101 + i, name }));

/** Flow weights: a few large houses carry most of the volume (Zipf-like). */
const WEIGHTS = BROKERS.map((_, i) => 1 / Math.pow(i + 1, 0.9));
const WEIGHT_TOTAL = WEIGHTS.reduce((a, b) => a + b, 0);

function pickBroker(random: () => number, exclude?: number): number {
  for (;;) {
    let r = random() * WEIGHT_TOTAL;
    let i = 0;
    while (i < WEIGHTS.length - 1 && r >= WEIGHTS[i]!) r -= WEIGHTS[i++]!;
    const id = BROKERS[i]!.id;
    if (id !== exclude) return id;
  }
}

/** The broker of the demo pattern (accumulating BHP before its price-sensitive announcements). */
export const ACCUMULATOR_BROKER_ID = BROKERS.find((b) => b.name === 'Tasman Ridge Securities')!.id;
export const PATTERN_CODE = 'BHP';
/** Sessions before each price-sensitive announcement in which the accumulator buys. */
export const PATTERN_SESSIONS = 5;

interface Profile {
  basePrice: number;
  /** Mean trades per day. */
  trades: number;
  /** Mean shares per trade. */
  size: number;
  /** Daily volatility (log return). */
  vol: number;
  sharesOnIssue: number;
}

/** The demo stocks (services/stocks demo data) with ticker-specific activity; others from their code's hash. */
const PROFILES: Record<string, Profile> = {
  BHP: { basePrice: 44.8, trades: 900, size: 260, vol: 0.014, sharesOnIssue: 5_071_000_000 },
  CSL: { basePrice: 285.5, trades: 520, size: 60, vol: 0.012, sharesOnIssue: 484_000_000 },
  CBA: { basePrice: 118.2, trades: 700, size: 110, vol: 0.01, sharesOnIssue: 1_673_000_000 },
  WES: { basePrice: 62.4, trades: 420, size: 140, vol: 0.011, sharesOnIssue: 1_134_000_000 },
  PLS: { basePrice: 3.12, trades: 800, size: 4200, vol: 0.032, sharesOnIssue: 3_011_000_000 },
  OZL: { basePrice: 26.5, trades: 150, size: 500, vol: 0.015, sharesOnIssue: 744_000_000 },
  WOW: { basePrice: 33.9, trades: 450, size: 230, vol: 0.01, sharesOnIssue: 1_221_000_000 },
  VOD: { basePrice: 1.42, trades: 300, size: 9000, vol: 0.013, sharesOnIssue: 26_900_000_000 },
  AZN: { basePrice: 212.0, trades: 200, size: 40, vol: 0.012, sharesOnIssue: 1_550_000_000 },
  SAP: { basePrice: 352.0, trades: 220, size: 35, vol: 0.013, sharesOnIssue: 1_228_000_000 },
  SIE: { basePrice: 298.0, trades: 200, size: 40, vol: 0.013, sharesOnIssue: 800_000_000 },
  NSRGY: { basePrice: 152.0, trades: 150, size: 60, vol: 0.009, sharesOnIssue: 2_600_000_000 },
};

/** The code's profile: the demo's, or one made from the code's hash (any code of 2-12 letters/digits is listed). */
export function profileOf(code: string): Profile {
  const known = PROFILES[code];
  if (known) return known;
  const random = prng(hashOf(`profile:${code}`));
  const basePrice = Math.round((0.05 + Math.pow(random(), 2) * 60) * 1000) / 1000;
  return {
    basePrice,
    trades: 40 + Math.floor(random() * 160),
    size: Math.max(50, Math.round(2000 / Math.max(basePrice, 0.2))),
    vol: 0.01 + random() * 0.03,
    sharesOnIssue: Math.round((50 + random() * 950) * 1_000_000),
  };
}

/** Codes the provider lists: 2-12 letters and digits, except those starting with NOQ (a refusal tests rely on). */
export const isListed = (code: string) => /^[A-Z0-9]{2,12}$/.test(code) && !code.startsWith('NOQ');

/** The first day the simulated market has data for. */
export const MARKET_EPOCH = '2025-01-02';

/** ASX price steps: 1c from $2, 0.5c from 10c, 0.1c below. Prices are kept as hundredths of a cent. */
export function tickE4(priceE4: number): number {
  if (priceE4 >= 20_000) return 100;
  if (priceE4 >= 1_000) return 50;
  return 10;
}
const toTick = (priceE4: number) => {
  const tick = tickE4(priceE4);
  return Math.max(tick, Math.round(priceE4 / tick) * tick);
};

/** The days (Sydney dates) of the pattern code's price-sensitive announcements. */
const patternDayCache = new Map<number, Set<string>>();
function patternDays(year: number): Set<string> {
  let days = patternDayCache.get(year);
  if (!days) {
    days = new Set(
      mockAnnouncementsOfYear(PATTERN_CODE, year, new Date(Date.UTC(year + 1, 0, 2)))
        .filter((a) => a.priceSensitive)
        .map((a) => sydneyDayOf(new Date(a.releasedAt))),
    );
    patternDayCache.set(year, days);
  }
  return days;
}
export const isPatternAnnouncementDay = (code: string, day: string) =>
  code === PATTERN_CODE && patternDays(Number(day.slice(0, 4))).has(day);

/** Whether `day` is one of the PATTERN_SESSIONS sessions before a pattern announcement of `code`. */
export function isAccumulationSession(code: string, day: string): boolean {
  if (code !== PATTERN_CODE) return false;
  let next = day;
  for (let i = 0; i < PATTERN_SESSIONS; i++) {
    next = nextTradingDay(next);
    if (isPatternAnnouncementDay(code, next)) return true;
  }
  return false;
}

function nextTradingDay(day: string): string {
  let d = new Date(`${day}T00:00:00Z`);
  do d = new Date(d.getTime() + 86_400_000);
  while (!isAsxTradingDay(d.toISOString().slice(0, 10)));
  return d.toISOString().slice(0, 10);
}

/** Each code's closes (hundredths of a cent) by trading day, walked from the epoch and extended on demand. */
const walks = new Map<string, { days: string[]; closes: Map<string, number> }>();

/** The close before `day`'s session (the previous trading day's close; the base price at the epoch). */
function previousClose(code: string, day: string): number {
  const profile = profileOf(code);
  let walk = walks.get(code);
  if (!walk) {
    walk = { days: [], closes: new Map() };
    walks.set(code, walk);
  }
  const prev = day <= MARKET_EPOCH ? null : previousAsxTradingDay(day);
  if (!prev || prev < MARKET_EPOCH) return Math.round(profile.basePrice * 10_000);
  const known = walk.closes.get(prev);
  if (known !== undefined) return known;
  const last = walk.days[walk.days.length - 1];
  const from = last ? nextTradingDay(last) : MARKET_EPOCH;
  let close = last ? walk.closes.get(last)! : Math.round(profile.basePrice * 10_000);
  for (const d of asxTradingDaysBetween(from, prev)) {
    close = dayPath(code, d, close).close;
    walk.days.push(d);
    walk.closes.set(d, close);
  }
  return walk.closes.get(prev) ?? close;
}

/** A day's open and close from the previous close (the pattern's move on an announcement day included). */
function dayPath(code: string, day: string, prevClose: number): { open: number; close: number } {
  const profile = profileOf(code);
  const random = prng(hashOf(`walk:${code}:${day}`));
  const gap = gaussian(random) * profile.vol * 0.25;
  let ret = gaussian(random) * profile.vol;
  // The pattern's move on the announcement day, and a drift that keeps the demo price near its base.
  if (code === PATTERN_CODE) ret += isPatternAnnouncementDay(code, day) ? 0.03 : -0.0012;
  const open = toTick(prevClose * Math.exp(gap));
  const close = toTick(open * Math.exp(ret));
  return { open, close };
}

export interface SimTrade {
  seq: number;
  /** ISO instant. */
  tradedAt: string;
  code: string;
  /** Hundredths of a cent. */
  priceE4: number;
  volume: number;
  buyerBrokerId: number;
  sellerBrokerId: number;
  conditionCodes: string[];
}

const tradeCache = new Map<string, SimTrade[]>();

/** Sydney's UTC offset in hours on a day (AEDT +11 from the first Sunday of October to the first Sunday of April). */
function sydneyOffsetHours(day: string): number {
  const at = new Date(`${day}T02:00:00Z`);
  const local = new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Australia/Sydney',
    hour: '2-digit',
    hourCycle: 'h23',
  }).format(at);
  return (Number(local) - 2 + 24) % 24;
}

/**
 * The trades of `code` on `day` (none on a day that is not a trading day or before the epoch), in time order.
 * `scale` multiplies the code's mean trades a day (a benchmark's month of a million trades); at 1, the demo
 * market. The day's price walk (its close) is the same at any scale; the trades along it differ.
 */
export function tradesOf(code: string, day: string, scale = 1): SimTrade[] {
  if (!isAsxTradingDay(day) || day < MARKET_EPOCH) return [];
  const key = `${code}:${day}`;
  const cacheKey = scale === 1 ? key : `${key}:x${scale}`;
  const cached = tradeCache.get(cacheKey);
  if (cached) return cached;
  const profile = profileOf(code);
  const random = prng(hashOf(`trades:${key}`));
  const { open, close } = dayPath(code, day, previousClose(code, day));
  const count = Math.max(5, Math.round(profile.trades * scale * (0.6 + 0.8 * random())));
  const offset = sydneyOffsetHours(day);
  const sessionStart = Date.parse(`${day}T10:00:00Z`) - offset * 3_600_000;
  const sessionMs = 6 * 3_600_000;
  const times = Array.from({ length: count }, () => Math.floor(random() * sessionMs)).sort((a, b) => a - b);
  const accumulating = isAccumulationSession(code, day);
  const trades: SimTrade[] = [];
  let bridge = 0;
  times.forEach((t, i) => {
    const progress = (i + 1) / (count + 1);
    bridge += gaussian(random) * profile.vol * 0.08;
    const drift = bridge - bridge * progress; // pulled back to the close by the end of the day
    const mid = open + (close - open) * progress;
    const priceE4 = i === count - 1 ? close : toTick(mid * Math.exp(drift * 0.3));
    const volume = Math.max(1, Math.round(profile.size * Math.exp(gaussian(random) * 0.9 - 0.4)));
    const buyer = pickBroker(random);
    trades.push({
      seq: 0,
      tradedAt: new Date(sessionStart + t).toISOString(),
      code,
      priceE4,
      volume,
      buyerBrokerId: buyer,
      sellerBrokerId: pickBroker(random, buyer),
      conditionCodes: [],
    });
  });
  if (accumulating) {
    // The demo pattern: about 12% of the session's volume bought by one broker in mid-sized lots.
    const dayVolume = trades.reduce((s, tr) => s + tr.volume, 0);
    let bought = 0;
    while (bought < dayVolume * 0.12) {
      const volume = Math.round(profile.size * (1.5 + random() * 2));
      const at = sessionStart + Math.floor(random() * sessionMs);
      const priceE4 = toTick(open + (close - open) * ((at - sessionStart) / sessionMs));
      trades.push({
        seq: 0,
        tradedAt: new Date(at).toISOString(),
        code,
        priceE4,
        volume,
        buyerBrokerId: ACCUMULATOR_BROKER_ID,
        sellerBrokerId: pickBroker(random, ACCUMULATOR_BROKER_ID),
        conditionCodes: [],
      });
      bought += volume;
    }
    trades.sort((a, b) => a.tradedAt.localeCompare(b.tradedAt));
    // The close stays the last trade's price.
    trades[trades.length - 1]!.priceE4 = close;
  }
  trades.forEach((tr, i) => (tr.seq = i + 1));
  if (tradeCache.size > 5000) tradeCache.clear();
  tradeCache.set(cacheKey, trades);
  return trades;
}

export interface DailyBar {
  date: string;
  openE4: number;
  highE4: number;
  lowE4: number;
  closeE4: number;
  volume: number;
  /** Dollars. */
  value: number;
}

/** The day's OHLCV from its trades (null when it has none); `scale` as tradesOf's. */
export function barOf(code: string, day: string, scale = 1): DailyBar | null {
  const trades = tradesOf(code, day, scale);
  if (!trades.length) return null;
  let high = 0;
  let low = Infinity;
  let volume = 0;
  let value = 0;
  for (const t of trades) {
    high = Math.max(high, t.priceE4);
    low = Math.min(low, t.priceE4);
    volume += t.volume;
    value += (t.priceE4 * t.volume) / 10_000;
  }
  return {
    date: day,
    openE4: trades[0]!.priceE4,
    highE4: high,
    lowE4: low,
    closeE4: trades[trades.length - 1]!.priceE4,
    volume,
    value: Math.round(value * 100) / 100,
  };
}

/** The latest completed trading day before `now` (Sydney): the provider's delayed data ends there. */
export function lastCompletedDay(now: Date): string {
  return previousAsxTradingDay(sydneyDayOf(now));
}
