import { DISPLAY_TIME_ZONE } from '@irp/proto';
import { DateTime } from 'luxon';
import { buildAnnouncementPdf } from './pdf';
import { AnnouncementSource, DocumentRefusedError, SourceAnnouncement, SourceDocument } from './source';

/** A generated announcement: every optional field of SourceAnnouncement is set, plus the release instant. */
export interface MockAnnouncement extends SourceAnnouncement {
  numberOfPages: number;
  size: string;
  releasedAtMs: number;
}

// FNV-1a, then mulberry32: tiny, fast and the same on every machine, so a ticker's year is always the
// same list (tests and the stand-in's seeded history rely on it).
function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const DAY_MS = 86_400_000;
const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const daysInYear = (year: number) => (Date.UTC(year + 1, 0, 1) - Date.UTC(year, 0, 1)) / DAY_MS;
const ordinalOf = (year: number, month: number, day: number) =>
  (Date.UTC(year, month - 1, day) - Date.UTC(year, 0, 1)) / DAY_MS + 1;
const lastDayOf = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

// Sydney's offset per calendar day: announcements fall in business hours, far from the 2-3 AM daylight
// saving switch, so one offset per day is exact, and caching it keeps seeding thousands of tickers fast
// (luxon's zone arithmetic is the costly part).
const offsets = new Map<number, number>();
function sydneyOffsetMinutes(year: number, month: number, day: number): number {
  const key = year * 10_000 + month * 100 + day;
  let offset = offsets.get(key);
  if (offset === undefined) {
    offset = DateTime.fromObject({ year, month, day, hour: 12 }, { zone: DISPLAY_TIME_ZONE }).offset;
    offsets.set(key, offset);
  }
  return offset;
}

/** The calendar year in Sydney of an instant. */
export function sydneyYearOf(date: Date): number {
  return DateTime.fromJSDate(date, { zone: DISPLAY_TIME_ZONE }).year;
}

interface Template {
  headline: string;
  priceSensitive: boolean;
}

/** The fixed calendar of a listed company's year: [month, first day, last day (clipped to the month)]. */
const CALENDAR: Array<Template & { month: number; from: number; to: number }> = [
  { headline: 'Quarterly Activities Report', priceSensitive: true, month: 1, from: 20, to: 31 },
  { headline: 'Half Year Results', priceSensitive: true, month: 2, from: 14, to: 28 },
  { headline: 'Quarterly Activities Report', priceSensitive: true, month: 4, from: 20, to: 30 },
  { headline: 'Quarterly Activities Report', priceSensitive: true, month: 7, from: 20, to: 31 },
  { headline: 'Full Year Results', priceSensitive: true, month: 8, from: 14, to: 31 },
  { headline: 'Annual Report to shareholders', priceSensitive: false, month: 9, from: 15, to: 30 },
  { headline: 'Notice of Annual General Meeting', priceSensitive: false, month: 10, from: 1, to: 15 },
  { headline: 'Quarterly Activities Report', priceSensitive: true, month: 10, from: 20, to: 31 },
  { headline: 'Results of Meeting', priceSensitive: false, month: 11, from: 10, to: 28 },
];

const APPENDIX_3B = 'Appendix 3B - Proposed issue of securities';
const APPENDIX_3Y = "Appendix 3Y - Change of Director's Interest Notice";
const TRADING_HALT = 'Trading Halt';

/** Routine announcements any day of the year, with how often each comes relative to the others. */
const ROUTINE: Array<Template & { weight: number }> = [
  { headline: APPENDIX_3B, priceSensitive: false, weight: 3 },
  { headline: APPENDIX_3Y, priceSensitive: false, weight: 4 },
  { headline: 'Appendix 2A', priceSensitive: false, weight: 3 },
  { headline: 'Appendix 3G', priceSensitive: false, weight: 2 },
  { headline: 'Appendix 3C - Buy-back', priceSensitive: false, weight: 1 },
  { headline: 'Investor Presentation', priceSensitive: true, weight: 2 },
  { headline: TRADING_HALT, priceSensitive: true, weight: 1 },
  { headline: 'Change of Registered Address', priceSensitive: false, weight: 0.3 },
  { headline: 'Becoming a substantial holder', priceSensitive: false, weight: 2 },
  { headline: 'Change in substantial holding', priceSensitive: false, weight: 3 },
  { headline: 'Ceasing to be a substantial holder', priceSensitive: false, weight: 1 },
  { headline: 'Dividend/Distribution - Update', priceSensitive: false, weight: 0.7 },
  { headline: 'Director Appointment', priceSensitive: false, weight: 0.4 },
  { headline: 'Cleansing Notice', priceSensitive: false, weight: 0.6 },
  { headline: 'Response to ASX Price Query', priceSensitive: true, weight: 0.3 },
];
const ROUTINE_WEIGHT = ROUTINE.reduce((sum, t) => sum + t.weight, 0);

interface Draft extends Template {
  ordinal: number;
  minuteOfDay: number;
}

/**
 * The mock announcements of `ticker` released in Sydney year `year` up to `now`, newest first. The same
 * ticker and year always give the same list (seeded from both), 20-60 a year, on weekdays between 9 AM and
 * 5 PM Sydney time.
 */
export function mockAnnouncementsOfYear(
  ticker: string,
  year: number,
  now: Date = new Date(),
): MockAnnouncement[] {
  const code = ticker.trim().toUpperCase();
  if (!/^[A-Z0-9]+$/.test(code) || !Number.isInteger(year)) return [];
  const random = prng(hashOf(`${code}:${year}`));
  const days = daysInYear(year);
  const between = (low: number, high: number) => low + Math.floor(random() * (high - low + 1));
  // Weekends move to the nearest weekday inside the year.
  const weekday = (ordinal: number) => {
    const dow = new Date(Date.UTC(year, 0, ordinal)).getUTCDay();
    if (dow === 6) return ordinal > 1 ? ordinal - 1 : ordinal + 2;
    if (dow === 0) return ordinal < days ? ordinal + 1 : ordinal - 2;
    return ordinal;
  };
  const businessMinute = () => between(9 * 60, 17 * 60 - 1);

  const drafts: Draft[] = CALENDAR.map((t) => ({
    headline: t.headline,
    priceSensitive: t.priceSensitive,
    ordinal: weekday(
      between(
        ordinalOf(year, t.month, t.from),
        ordinalOf(year, t.month, Math.min(t.to, lastDayOf(year, t.month))),
      ),
    ),
    minuteOfDay: businessMinute(),
  }));
  // Every year has at least one of the forms the auto-send rules are most often written for.
  for (const headline of [APPENDIX_3B, APPENDIX_3Y]) {
    drafts.push({
      headline,
      priceSensitive: false,
      ordinal: weekday(between(1, days)),
      minuteOfDay: businessMinute(),
    });
  }
  const target = between(20, 60);
  while (drafts.length < target) {
    let pick = random() * ROUTINE_WEIGHT;
    const template = ROUTINE.find((t) => (pick -= t.weight) < 0) ?? ROUTINE[0];
    const ordinal = weekday(between(1, days));
    drafts.push({
      headline: template.headline,
      priceSensitive: template.priceSensitive,
      ordinal,
      minuteOfDay: businessMinute(),
    });
    if (template.headline === TRADING_HALT && drafts.length < target) {
      // A halt is lifted within two trading days.
      drafts.push({
        headline: 'Reinstatement to Official Quotation',
        priceSensitive: false,
        ordinal: weekday(Math.min(days, ordinal + 2)),
        minuteOfDay: businessMinute(),
      });
    }
  }

  const timed = drafts.map((d) => {
    const date = new Date(Date.UTC(year, 0, d.ordinal));
    const month = date.getUTCMonth() + 1;
    const day = date.getUTCDate();
    const hour = Math.floor(d.minuteOfDay / 60);
    const minute = d.minuteOfDay % 60;
    const second = between(0, 59);
    const offset = sydneyOffsetMinutes(year, month, day);
    const releasedAtMs = Date.UTC(year, month - 1, day, hour, minute, second) - offset * 60_000;
    const sign = offset >= 0 ? '+' : '-';
    const local = `${year}-${pad(month)}-${pad(day)}T${pad(hour)}:${pad(minute)}:${pad(second)}`;
    const pages = between(2, 4);
    return {
      draft: d,
      releasedAtMs,
      releasedAt: `${local}${sign}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`,
      stamp: `${year}${pad(month)}${pad(day)}${pad(hour)}${pad(minute)}`,
      pages,
      size: `${(pages * 55 + random() * 150).toFixed(1)}KB`,
    };
  });
  timed.sort((a, b) => a.releasedAtMs - b.releasedAtMs || (a.draft.headline < b.draft.headline ? -1 : 1));

  const cutoff = now.getTime();
  const result: MockAnnouncement[] = [];
  timed.forEach((t, index) => {
    if (t.releasedAtMs > cutoff) return;
    const sourceKey = `mock-${code}-${t.stamp}-${index + 1}`;
    result.push({
      sourceKey,
      ticker: code,
      headline: t.draft.headline,
      releasedAt: t.releasedAt,
      releasedAtMs: t.releasedAtMs,
      priceSensitive: t.draft.priceSensitive,
      documentUrl: `mock:${sourceKey}`,
      numberOfPages: t.pages,
      size: t.size,
    });
  });
  return result.reverse();
}

const strip = ({ releasedAtMs: _releasedAtMs, ...announcement }: MockAnnouncement): SourceAnnouncement =>
  announcement;

/**
 * The `mock` announcement service: a deterministic generator with no network, for development and
 * tests, and for installs with no feed configured. Any ticker is known.
 */
export class MockSource implements AnnouncementSource {
  readonly name = 'mock';
  readonly marketWide = false;
  private readonly now: () => Date;

  constructor(options: { now?: () => Date } = {}) {
    this.now = options.now ?? (() => new Date());
  }

  async latest(ticker: string): Promise<SourceAnnouncement[]> {
    const now = this.now();
    const year = sydneyYearOf(now);
    // Early in January this year alone has fewer than 20.
    return [...mockAnnouncementsOfYear(ticker, year, now), ...mockAnnouncementsOfYear(ticker, year - 1, now)]
      .slice(0, 20)
      .map(strip);
  }

  async announcementsOfYear(ticker: string, year: number): Promise<SourceAnnouncement[]> {
    return mockAnnouncementsOfYear(ticker, year, this.now()).map(strip);
  }

  async download(documentUrl: string): Promise<SourceDocument> {
    const key = /^mock:(mock-([A-Z0-9]+)-(\d{4})\d{8}-\d+)$/.exec(documentUrl);
    const found = key
      ? mockAnnouncementsOfYear(key[2], Number(key[3]), this.now()).find((a) => a.sourceKey === key[1])
      : undefined;
    if (!found)
      throw new DocumentRefusedError('not a document of the mock announcement service', documentUrl);
    const bytes = await buildAnnouncementPdf({
      title: found.headline,
      ticker: found.ticker,
      date: new Date(found.releasedAtMs),
      pages: found.numberOfPages,
    });
    return { bytes, finalUrl: documentUrl };
  }

  async close(): Promise<void> {
    // Nothing to free: the mock holds no connections or browser.
  }
}
