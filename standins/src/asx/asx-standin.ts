import { DISPLAY_TIME_ZONE, escapeHtml } from '@irp/proto';
import { DateTime } from 'luxon';
import { readFileSync, writeFileSync } from 'node:fs';
import { ServerResponse } from 'node:http';
import { z } from 'zod';
// The stand-in seeds the same deterministic history as the spec's `mock` source and serves the same PDFs.
import { mockAnnouncementsOfYear, sydneyYearOf } from '@irp/announcements/dist/sources/mock.source';
import { buildAnnouncementPdf } from '@irp/announcements/dist/sources/pdf';
import {
  FaultRuleInput,
  FaultRules,
  StandInRoute,
  parseWith,
  readJson,
  readText,
  sendJson,
  sendText,
  startStandInServer,
} from '../kit';

/**
 * A local stand-in of the ASX announcement feeds (ADR 0007): a stand-in kit server on 127.0.0.1 speaking
 * both shapes the adapters read (the ASX per-company feed with paging, Markit Digital's whole-market feed
 * and its per-company variant), serving real PDFs, optionally behind the ASX terms page, with a control API
 * under /standin/ to publish announcements and to make the feeds fail or stall (the kit's faults on the
 * `feed` route group: the per-company, whole-market and Markit per-company lists, not documents). Its replies
 * are held to the feeds' sourced description (vendor-descriptions/asx) by the announcements service's contract
 * spec (services/announcements/src/sources/asx-contract.spec.ts).
 */

/**
 * How document links answer: `direct` the PDF; `terms` the ASX terms page carrying the PDF's URL in a hidden
 * pdfURL input (as the real site does); `agree` a terms page with only an "Agree and proceed" button whose
 * form leads to the PDF (what only browser mode can follow).
 */
export const STAND_IN_MODES = ['direct', 'terms', 'agree'] as const;
export type StandInMode = (typeof STAND_IN_MODES)[number];

export interface AsxStandInOptions {
  /** 0 (default) = any free port. */
  port?: number;
  host?: string;
  mode?: StandInMode;
  /** Tickers given a deterministic history (the mock generator's) on start. */
  seedTickers?: string[];
  /** Sydney years of that history; default this year and the two before. */
  seedYears?: number[];
  /** Clock for the seeded history and default release times (tests). */
  now?: () => Date;
  /**
   * A file keeping the last id published, read on start and written on each publish: a restarted stand-in
   * goes on numbering from there (main.ts keeps one in the OS temp folder). Without it, or when it is lost,
   * the wall clock still keeps a restarted stand-in's ids above those of its earlier runs (publishedIdFloor).
   */
  idFile?: string;
  /** Fault rules set at start (the kit's; main.ts reads STANDIN_FAULTS). */
  faults?: FaultRuleInput[];
}

export interface PublishInput {
  ticker: string;
  headline: string;
  priceSensitive?: boolean;
  /** ISO 8601; default now. */
  releasedAt?: string;
  pages?: number;
  /** Serve an HTML error page instead of the PDF (the ASX does, now and then). */
  notPdf?: boolean;
}

/** An announcement as the control API shows it. */
export interface StandInAnnouncement {
  id: string;
  ticker: string;
  headline: string;
  releasedAt: string;
  priceSensitive: boolean;
  pages: number;
  size: string;
  documentKey: string;
  /** The per-company feed's document link (a terms page in `terms`/`agree` mode). */
  documentUrl: string;
  /** The Markit feed's document link. */
  fileUrl: string;
  /** The PDF itself. */
  pdfUrl: string;
  /** When a feed (per-company, whole-market or Markit per-company) first listed it; absent until then. */
  firstServedAt?: string;
}

export interface AsxStandIn {
  url: string;
  port: number;
  publish(input: PublishInput): StandInAnnouncement;
  /** What it holds, newest first: one ticker's, or the newest 100 of the market. */
  announcements(ticker?: string): StandInAnnouncement[];
  setMode(mode: StandInMode): void;
  /** The next `count` feed requests (announcement lists, not documents) answer `status`. */
  failNext(count: number, status: number): void;
  /** The next `count` feed requests answer only after `ms` (for timeout tests). */
  delayNext(count: number, ms: number): void;
  /**
   * Holds one ticker's history pages (per-company requests paging back, `before_id`), or every feed
   * request with '*', unanswered until released (at most 60 s each): a test sees an initial poll or resync
   * in progress for as long as it needs, while the ticker's regular polls (its newest page) still answer.
   */
  hold(ticker: string, on: boolean): void;
  /** How many feed requests it has been asked so far (for tests of caching and paging). */
  feedRequests(): number;
  /** The kit's fault rules: any route (by name or group) delayed, failed, rate-limited or held. */
  faults: FaultRules;
  close(): Promise<void>;
}

interface Stored {
  id: string;
  seq: number;
  ticker: string;
  headline: string;
  releasedAtMs: number;
  priceSensitive: boolean;
  pages: number;
  size: string;
  documentKey: string;
  notPdf: boolean;
  firstServedAtMs?: number;
}

const publishSchema = z.object({
  ticker: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z0-9]{1,6}$/, 'ticker must be 1-6 letters or digits'),
  headline: z.string().trim().min(1, 'headline is required').max(300),
  priceSensitive: z.boolean().default(false),
  releasedAt: z
    .string()
    .refine((v) => !Number.isNaN(Date.parse(v)), 'releasedAt must be an ISO 8601 timestamp')
    .optional(),
  pages: z.number().int().min(1).max(500).default(2),
  notPdf: z.boolean().default(false),
});
const modeSchema = z.object({ mode: z.enum(STAND_IN_MODES) });
const failSchema = z.object({
  count: z.number().int().min(0),
  status: z.number().int().min(400).max(599).default(500),
});
const delaySchema = z.object({ count: z.number().int().min(0), ms: z.number().int().min(0).max(600_000) });
const holdSchema = z.object({ ticker: z.string().min(1).max(20), on: z.boolean() });
/** The longest one request is held: a test that forgets to release does not hang the poller for good. */
const MAX_HOLD_MS = 60_000;

/** Ordered by release time, then id: the order both feeds page in. */
const before = (a: Stored, b: Stored) =>
  a.releasedAtMs < b.releasedAtMs || (a.releasedAtMs === b.releasedAtMs && a.seq < b.seq);

/** Index of the first element not before `item` in an ascending list. */
function lowerBound(list: Stored[], item: Stored): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (before(list[mid], item)) low = mid + 1;
    else high = mid;
  }
  return low;
}

// Ascending lists: a new announcement (released now) is an append, and both feeds read from the end.
function insertSorted(list: Stored[], item: Stored): void {
  if (list.length === 0 || before(list[list.length - 1], item)) list.push(item);
  else list.splice(lowerBound(list, item), 0, item);
}

const sizeOf = (pages: number) => `${(pages * 1.2 + 1.5).toFixed(1)}KB`;

function announcementTypeOf(headline: string): string {
  if (/quarterly|half year|full year|annual report/i.test(headline)) return 'Periodic Reports';
  if (/appendix|buy-back|cleansing/i.test(headline)) return 'Issued Capital';
  if (/substantial/i.test(headline)) return 'Security Holder Details';
  if (/meeting/i.test(headline)) return 'Notice of Meeting';
  if (/trading halt|reinstatement|price query/i.test(headline)) return 'ASX Announcement';
  if (/presentation/i.test(headline)) return 'Progress Report';
  return 'Company Administration';
}

/** Seeded ids start here, numbered in release order; published ids are above them (publishedIdFloor). */
const SEEDED_FIRST_ID = 2_000_000;
/** 2025-01-01T00:00:00Z: the wall clock's origin for published ids. */
const PUBLISHED_ID_EPOCH_MS = Date.UTC(2025, 0, 1);
/** The last id published by any stand-in of this process (a test restarting one within a second). */
let lastPublishedInProcess = 0;

/**
 * The least id a publish may take now: the seconds since 2025 (eight digits, like the ASX's own ids, until
 * 2028; nine after). An ASX id is one counter that only grows; a stand-in that numbered from a fixed start
 * gave a restarted stand-in the ids of the announcements its earlier runs published, which a poller had
 * stored, so it took the new ones for stored ones. A restart takes longer than the second a publish moves
 * the clock-based floor, and idFile covers a fast restart after a burst of publishes.
 */
export function publishedIdFloor(wallClockMs: number): number {
  return Math.max(SEEDED_FIRST_ID + 1_000_000, Math.floor((wallClockMs - PUBLISHED_ID_EPOCH_MS) / 1000));
}

function readIdFile(path: string | undefined): number {
  if (!path) return 0;
  try {
    const value = Number(readFileSync(path, 'utf8').trim());
    return Number.isSafeInteger(value) && value > 0 ? value : 0;
  } catch {
    return 0;
  }
}

/** Kept best-effort: a file that cannot be written leaves the clock floor, never a failed publish. */
function writeIdFile(path: string, id: number): void {
  try {
    writeFileSync(path, `${id}\n`);
  } catch {
    // publishedIdFloor still keeps a later run's ids above this one's but for a burst in its last seconds.
  }
}

/** The ASX per-company feed's time format: Sydney local time with a colon-less offset. */
const asxTime = (ms: number) =>
  DateTime.fromMillis(ms, { zone: DISPLAY_TIME_ZONE }).toFormat("yyyy-MM-dd'T'HH:mm:ssZZZ");
const pdfDay = (ms: number) => DateTime.fromMillis(ms, { zone: DISPLAY_TIME_ZONE }).toFormat('yyyyMMdd');

export async function startAsxStandIn(options: AsxStandInOptions = {}): Promise<AsxStandIn> {
  const now = options.now ?? (() => new Date());
  let mode: StandInMode = options.mode ?? 'direct';

  const byTicker = new Map<string, Stored[]>();
  const market: Stored[] = [];
  const byId = new Map<string, Stored>();
  const byDocumentKey = new Map<string, Stored>();
  // ASX ids are eight digits; seeded ones are numbered in release order so a restart gives the same ids to
  // the same history. Published ones never repeat an earlier run's (publishedIdFloor, idFile).
  let nextSeq = SEEDED_FIRST_ID;
  let lastPublished = Math.max(readIdFile(options.idFile), lastPublishedInProcess);

  const store = (input: Omit<Stored, 'id' | 'seq' | 'documentKey'>, published = false): Stored => {
    let seq: number;
    if (published) {
      seq = Math.max(lastPublished + 1, publishedIdFloor(Date.now()));
      lastPublished = seq;
      lastPublishedInProcess = Math.max(lastPublishedInProcess, seq);
      if (options.idFile) writeIdFile(options.idFile, seq);
    } else seq = nextSeq++;
    const id = String(seq).padStart(8, '0');
    const item: Stored = {
      ...input,
      id,
      seq,
      documentKey: `2924-${id}-${(Math.imul(seq, 0x9e3779b1) >>> 0).toString(16).toUpperCase()}`,
    };
    let list = byTicker.get(item.ticker);
    if (!list) byTicker.set(item.ticker, (list = []));
    insertSorted(list, item);
    insertSorted(market, item);
    byId.set(id, item);
    byDocumentKey.set(item.documentKey, item);
    return item;
  };

  const seedNow = now();
  const currentYear = sydneyYearOf(seedNow);
  const years = options.seedYears ?? [currentYear - 2, currentYear - 1, currentYear];
  const seeded = (options.seedTickers ?? [])
    .flatMap((ticker) => years.flatMap((year) => mockAnnouncementsOfYear(ticker, year, seedNow)))
    .sort((a, b) => a.releasedAtMs - b.releasedAtMs || (a.sourceKey < b.sourceKey ? -1 : 1));
  for (const a of seeded) {
    store({
      ticker: a.ticker,
      headline: a.headline,
      releasedAtMs: a.releasedAtMs,
      priceSensitive: a.priceSensitive,
      pages: a.numberOfPages,
      size: a.size,
      notPdf: false,
    });
  }

  const paths = (item: Stored) => ({
    document: `/asx/v2/statistics/displayAnnouncement.do?display=pdf&idsId=${item.id}`,
    file: `/asx-research/1.0/file/${item.documentKey}`,
    pdf: `/asxpdf/${pdfDay(item.releasedAtMs)}/pdf/${item.id}.pdf`,
  });

  const view = (item: Stored, origin: string): StandInAnnouncement => {
    const p = paths(item);
    return {
      id: item.id,
      ticker: item.ticker,
      headline: item.headline,
      releasedAt: new Date(item.releasedAtMs).toISOString(),
      priceSensitive: item.priceSensitive,
      pages: item.pages,
      size: item.size,
      documentKey: item.documentKey,
      documentUrl: `${origin}${p.document}`,
      fileUrl: `${origin}${p.file}`,
      pdfUrl: `${origin}${p.pdf}`,
      ...(item.firstServedAtMs ? { firstServedAt: new Date(item.firstServedAtMs).toISOString() } : {}),
    };
  };

  /** A feed page's items, each stamped with the first time a feed listed it (benches time detection by it). */
  const served = (items: Stored[]): Stored[] => {
    const at = Date.now();
    for (const item of items) item.firstServedAtMs ??= at;
    return items;
  };

  const publish = (input: unknown, origin: string): StandInAnnouncement => {
    const valid = parseWith(publishSchema, input);
    const item = store(
      {
        ticker: valid.ticker,
        headline: valid.headline,
        releasedAtMs: valid.releasedAt ? Date.parse(valid.releasedAt) : now().getTime(),
        priceSensitive: valid.priceSensitive,
        pages: valid.pages,
        size: sizeOf(valid.pages),
        notPdf: valid.notPdf,
      },
      true,
    );
    return view(item, origin);
  };

  const announcements = (ticker: string | undefined, origin: string): StandInAnnouncement[] => {
    const list = ticker ? (byTicker.get(ticker.trim().toUpperCase()) ?? []) : market.slice(-100);
    return list
      .slice()
      .reverse()
      .map((item) => view(item, origin));
  };

  // Generating a PDF takes milliseconds; the few documents a test or a person opens repeatedly are kept.
  const pdfCache = new Map<string, Buffer>();
  const pdfOf = async (item: Stored): Promise<Buffer> => {
    let pdf = pdfCache.get(item.id);
    if (!pdf) {
      pdf = await buildAnnouncementPdf({
        title: item.headline,
        ticker: item.ticker,
        date: new Date(item.releasedAtMs),
        pages: item.pages,
      });
      if (pdfCache.size >= 64) pdfCache.delete(pdfCache.keys().next().value ?? '');
      pdfCache.set(item.id, pdf);
    }
    return pdf;
  };

  const json = (res: ServerResponse, status: number, body: unknown) => sendJson(res, status, body);
  /**
   * An unknown code: 404, with no body. No recording of either feed shows what a 404 carries
   * (vendor-descriptions/asx/README.md), so the stand-in sends nothing the vendors were not seen to send.
   */
  const unknownCode = (res: ServerResponse) => {
    res.writeHead(404);
    res.end();
  };
  const html = (res: ServerResponse, status: number, body: string) =>
    sendText(res, status, body, 'text/html; charset=utf-8');

  const sendPdf = async (res: ServerResponse, item: Stored) => {
    if (item.notPdf) {
      html(res, 200, '<!DOCTYPE html><html><body><h1>Document temporarily unavailable</h1></body></html>');
      return;
    }
    const pdf = await pdfOf(item);
    // Chunked, with no content-length, as the ASX CDN often answers: the downloader must count as it reads.
    res.writeHead(200, { 'content-type': 'application/pdf' });
    for (let offset = 0; offset < pdf.length; offset += 16 * 1024)
      res.write(pdf.subarray(offset, offset + 16 * 1024));
    res.end();
  };

  const termsPage = (item: Stored) => {
    const pdfInput =
      mode === 'terms'
        ? `\n    <input name="pdfURL" value="${escapeHtml(paths(item).pdf)}" type="hidden">`
        : '';
    return `<!DOCTYPE html>
<html lang="en">
<head><title>ASX - Access to Company Announcements</title></head>
<body>
  <h1>Access to company announcements</h1>
  <p>${escapeHtml(item.ticker)}: ${escapeHtml(item.headline)}</p>
  <p>By proceeding you agree to the terms of use of the ASX website.</p>
  <form name="showAnnouncementPDFForm" method="post" action="/asx/v2/statistics/announcementTerms.do">
    <input name="idsId" value="${item.id}" type="hidden">${pdfInput}
    <input value="Decline" type="button" onclick="history.back()">
    <input value="Agree and proceed" type="submit">
  </form>
</body>
</html>`;
  };

  const sendDocument = async (res: ServerResponse, item: Stored | undefined) => {
    if (!item) return html(res, 404, '<!DOCTYPE html><html><body><h1>Not found</h1></body></html>');
    if (mode === 'direct') return sendPdf(res, item);
    return html(res, 200, termsPage(item));
  };

  const perCompany = (res: ServerResponse, code: string, query: URLSearchParams, origin: string) => {
    const list = byTicker.get(code);
    if (!list) return unknownCode(res);
    const count = Math.min(100, Math.max(1, Number(query.get('count')) || 20));
    const sensitiveOnly = query.get('market_sensitive') === 'true';
    const cursor = byId.get(query.get('before_id') ?? '');
    let index = cursor && cursor.ticker === code ? lowerBound(list, cursor) - 1 : list.length - 1;
    const page: Stored[] = [];
    for (; index >= 0 && page.length < count; index--) {
      if (!sensitiveOnly || list[index].priceSensitive) page.push(list[index]);
    }
    const last = page.at(-1);
    const next =
      last && page.length === count && index >= 0
        ? `/asx/1/company/${code}/announcements?count=${count}&market_sensitive=${sensitiveOnly}&before_id=${last.id}`
        : null;
    // The fields of every recorded item, and only those (vendor-descriptions/asx, AsxAnnouncement).
    json(res, 200, {
      data: served(page).map((item) => {
        const p = paths(item);
        return {
          id: item.id,
          document_release_date: asxTime(item.releasedAtMs),
          document_date: asxTime(item.releasedAtMs),
          url: `${origin}${p.document}`,
          relative_url: p.document,
          header: item.headline,
          market_sensitive: item.priceSensitive,
          number_of_pages: item.pages,
          size: item.size,
          legacy_announcement: false,
        };
      }),
      paging_next_url: next,
    });
  };

  /** An item of the whole-market feed: it names its company and lists its types (MarkitMarketAnnouncement). */
  const markitItem = (item: Stored) => ({
    symbol: item.ticker,
    headline: item.headline,
    date: new Date(item.releasedAtMs).toISOString(),
    documentKey: item.documentKey,
    isPriceSensitive: item.priceSensitive,
    announcementTypes: [announcementTypeOf(item.headline)],
    fileSize: item.size,
  });

  /**
   * The per-company feed as recorded (MarkitCompanyAnnouncements): the company on `data`, its items without a
   * symbol, one upper-case type each and an empty `url`.
   */
  const markitCompany = (ticker: string, list: Stored[]) => ({
    data: {
      displayName: `${ticker} LIMITED`,
      issueType: 'CS',
      items: served(list.slice(-5))
        .reverse()
        .map((item) => ({
          announcementType: announcementTypeOf(item.headline).toUpperCase(),
          date: new Date(item.releasedAtMs).toISOString(),
          documentKey: item.documentKey,
          fileSize: item.size,
          headline: item.headline,
          isPriceSensitive: item.priceSensitive,
          url: '',
        })),
      symbol: ticker,
    },
  });

  const marketPage = (res: ServerResponse, query: URLSearchParams) => {
    const page = Math.max(0, Math.floor(Number(query.get('page')) || 0));
    const itemsPerPage = Math.min(100, Math.max(1, Math.floor(Number(query.get('itemsPerPage')) || 25)));
    const sensitiveOnly = query.get('priceSensitiveOnly') === 'true';
    let items: Stored[];
    if (!sensitiveOnly) {
      const end = market.length - page * itemsPerPage;
      items = market.slice(Math.max(0, end - itemsPerPage), Math.max(0, end)).reverse();
    } else {
      items = [];
      let skip = page * itemsPerPage;
      for (let i = market.length - 1; i >= 0 && items.length < itemsPerPage; i--) {
        if (!market[i].priceSensitive) continue;
        if (skip > 0) skip--;
        else items.push(market[i]);
      }
    }
    json(res, 200, { data: { items: served(items).map(markitItem) } });
  };

  const notFound = '<!DOCTYPE html><html><body><h1>Not found</h1></body></html>';
  const feed = { group: 'feed' } as const;
  const control = { faultable: false } as const;
  /** The feed's hold rules as the control API shows them: a ticker, or '*' for every feed request. */
  const held = () =>
    server.faults
      .list()
      .filter((r) => r.kind === 'hold' && r.route === 'feed')
      .map((r) => r.key ?? '*');
  const hold = (input: unknown) => {
    const valid = parseWith(holdSchema, input);
    const ticker = valid.ticker.toUpperCase();
    const slot = { kind: 'hold', route: 'feed', key: ticker === '*' ? undefined : ticker } as const;
    if (valid.on) server.faults.set({ ...slot, maxMs: MAX_HOLD_MS });
    else server.faults.clear(slot);
  };
  const failNext = (input: unknown) => {
    const valid = parseWith(failSchema, input);
    server.faults.set({ kind: 'fail', route: 'feed', status: valid.status, times: valid.count });
    return valid;
  };
  const delayNext = (input: unknown) => {
    const valid = parseWith(delaySchema, input);
    server.faults.set({ kind: 'delay', route: 'feed', ms: valid.ms, times: valid.count });
    return valid;
  };

  const routes: StandInRoute[] = [
    {
      ...feed,
      method: 'GET',
      path: /^\/asx\/1\/company\/([^/]+)\/announcements$/,
      name: 'company-announcements',
      // Only paging back (an initial poll or resync) is held per ticker; the newest page still answers.
      faultKey: ({ params, query }) => (query.has('before_id') ? params[0].toUpperCase() : undefined),
      handle: ({ res, params, query, origin }) => perCompany(res, params[0].toUpperCase(), query, origin),
    },
    {
      ...feed,
      method: 'GET',
      path: '/asx-research/1.0/markets/announcements',
      name: 'market-announcements',
      handle: ({ res, query }) => marketPage(res, query),
    },
    {
      ...feed,
      method: 'GET',
      path: /^\/asx-research\/1\.0\/companies\/([^/]+)\/announcements$/,
      name: 'markit-company-announcements',
      handle: ({ res, params }) => {
        const code = params[0].toUpperCase();
        const list = byTicker.get(code);
        if (!list) return unknownCode(res);
        return json(res, 200, markitCompany(code, list));
      },
    },
    {
      method: 'GET',
      path: '/asx/v2/statistics/displayAnnouncement.do',
      name: 'document',
      group: 'documents',
      handle: ({ res, query }) => sendDocument(res, byId.get(query.get('idsId') ?? '')),
    },
    {
      method: 'GET',
      path: /^\/asx-research\/1\.0\/file\/([^/]+)$/,
      name: 'file',
      group: 'documents',
      handle: ({ res, params }) => sendDocument(res, byDocumentKey.get(params[0])),
    },
    {
      method: 'GET',
      path: /^\/asxpdf\/\d{8}\/pdf\/(\d+)\.pdf$/,
      name: 'pdf',
      group: 'documents',
      handle: ({ res, params }) => {
        const item = byId.get(params[0]);
        return item ? sendPdf(res, item) : html(res, 404, notFound);
      },
    },
    {
      method: 'POST',
      path: '/asx/v2/statistics/announcementTerms.do',
      name: 'terms',
      group: 'documents',
      handle: async ({ req, res }) => {
        // The terms form: agreeing leads to the PDF, as the real site's form does.
        const form = new URLSearchParams(await readText(req));
        const item = byId.get(form.get('idsId') ?? '');
        if (!item) return html(res, 404, notFound);
        res.writeHead(302, { location: paths(item).pdf });
        res.end();
      },
    },
    {
      ...control,
      method: 'POST',
      path: '/standin/announcements',
      name: 'publish',
      handle: async ({ req, res, origin }) => json(res, 201, publish(await readJson(req), origin)),
    },
    {
      ...control,
      method: 'GET',
      path: '/standin/announcements',
      name: 'announcements',
      handle: ({ res, query, origin }) =>
        json(res, 200, { items: announcements(query.get('ticker') ?? undefined, origin) }),
    },
    {
      ...control,
      method: 'POST',
      path: '/standin/mode',
      name: 'mode',
      handle: async ({ req, res }) => {
        mode = parseWith(modeSchema, await readJson(req)).mode;
        json(res, 200, { mode });
      },
    },
    // The feed's faults as the control API had them before the kit (tests and the README use them).
    {
      ...control,
      method: 'POST',
      path: '/standin/fail',
      name: 'fail',
      handle: async ({ req, res }) => json(res, 200, failNext(await readJson(req))),
    },
    {
      ...control,
      method: 'POST',
      path: '/standin/delay',
      name: 'delay',
      handle: async ({ req, res }) => json(res, 200, delayNext(await readJson(req))),
    },
    {
      ...control,
      method: 'POST',
      path: '/standin/hold',
      name: 'hold',
      handle: async ({ req, res }) => {
        hold(await readJson(req));
        json(res, 200, { held: held() });
      },
    },
  ];

  const server = await startStandInServer({
    port: options.port,
    host: options.host,
    routes,
    faults: options.faults,
    health: () => ({ status: 'ok', mode, tickers: byTicker.size, announcements: market.length }),
  });
  const url = server.url;

  return {
    url,
    port: server.port,
    publish: (input) => publish(input, url),
    announcements: (ticker) => announcements(ticker, url),
    setMode: (next) => {
      mode = parseWith(modeSchema, { mode: next }).mode;
    },
    failNext: (count, status) => void failNext({ count, status }),
    delayNext: (count, ms) => void delayNext({ count, ms }),
    hold: (ticker, on) => hold({ ticker, on }),
    feedRequests: () => server.requests('feed'),
    faults: server.faults,
    close: () => server.close(),
  };
}
