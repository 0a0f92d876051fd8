import { DISPLAY_TIME_ZONE } from '@irp/proto';
import type { VendorHttpClient } from '@irp/platform';
import { DateTime } from 'luxon';
import { z } from 'zod';
import { DocumentFetcher } from './document-fetcher';
import { feedClient, getJson, resolveAgainst } from './http';
import { AnnouncementSource, SourceAnnouncement, SourceDocument } from './source';

/** The services that speak the ASX per-company shape: asx itself, and westpac/iress by assumption. */
export type PerCompanyServiceName = 'asx' | 'westpac' | 'iress';

export interface AsxSourceOptions {
  baseUrl: string;
  timeoutMs: number;
  documents: DocumentFetcher;
  /** Attempts of one page when the feed is busy or down (default 1: the poller retries), and the first backoff delay. */
  maxAttempts?: number;
  retryDelayMs?: number;
  /** Requests open at once and per minute to this service's hosts (see SOURCE_MAX_CONCURRENT). */
  maxConcurrent?: number;
  perMinute?: number;
  /** The vendor client to use (asx2 shares its own); else one for `baseUrl` alone. */
  http?: VendorHttpClient;
  /** Reported name; the per-company shape is also assumed for westpac and iress. */
  name?: PerCompanyServiceName;
  /** Items per page asked of the feed (its `count`). */
  pageSize?: number;
  /** Pages kept for year walks, and for how long. */
  cacheMaxPages?: number;
  cacheTtlMs?: number;
  /** Clock of the page cache (tests). */
  now?: () => number;
}

/**
 * An ASX timestamp ('2019-12-20T13:43:43+1100', or with a colon in the offset, or Z) as ISO 8601 keeping
 * its offset ('2019-12-20T13:43:43+11:00'); null when it is not a timestamp.
 */
export function parseAsxTimestamp(value: string): string | null {
  const parsed = DateTime.fromISO(value.trim(), { setZone: true });
  return parsed.isValid ? parsed.toISO({ suppressMilliseconds: true }) : null;
}

/** [start, end) of a calendar year in Sydney, in epoch milliseconds. */
export function sydneyYearBounds(year: number): { start: number; end: number } {
  const start = DateTime.fromObject({ year, month: 1, day: 1 }, { zone: DISPLAY_TIME_ZONE });
  return { start: start.toMillis(), end: start.plus({ years: 1 }).toMillis() };
}

// Only what is read is validated; the feed carries more (document_date, issuer names, ...) and is
// unofficial, so unknown fields are ignored rather than refused.
const timestamp = z.string().refine((v) => parseAsxTimestamp(v) !== null, 'not a timestamp');
const asxItemSchema = z.object({
  id: z.union([z.string().min(1), z.number()]).transform(String),
  document_release_date: timestamp,
  url: z.string().nullish(),
  relative_url: z.string().nullish(),
  header: z.string().nullish(),
  market_sensitive: z.boolean().nullish(),
  number_of_pages: z.number().nullish(),
  size: z.string().nullish(),
});
const asxPageSchema = z.object({
  data: z.array(asxItemSchema).nullish(),
  paging_next_url: z.string().nullish(),
});
type AsxItem = z.infer<typeof asxItemSchema>;
interface AsxPage {
  items: SourceAnnouncement[];
  next: string | null;
}

/** Pages of past years do not change: kept so a walk over year after year fetches each page once. */
class PageCache {
  private readonly pages = new Map<string, { at: number; page: AsxPage }>();
  constructor(
    private readonly maxPages: number,
    private readonly ttlMs: number,
    private readonly now: () => number,
  ) {}

  get(url: string): AsxPage | undefined {
    const hit = this.pages.get(url);
    if (!hit) return undefined;
    if (this.now() - hit.at > this.ttlMs) {
      this.pages.delete(url);
      return undefined;
    }
    return hit.page;
  }

  set(url: string, page: AsxPage): void {
    this.pages.delete(url);
    // A Map iterates in insertion order: the first key is the oldest page.
    while (this.pages.size >= this.maxPages) {
      const oldest = this.pages.keys().next().value;
      if (oldest === undefined) break;
      this.pages.delete(oldest);
    }
    this.pages.set(url, { at: this.now(), page });
  }

  get size(): number {
    return this.pages.size;
  }

  /** Drops every cached page whose URL contains `part` (one company's feed). */
  forget(part: string): void {
    for (const url of [...this.pages.keys()]) if (url.includes(part)) this.pages.delete(url);
  }
}

// A walk back never needs more (20,000 announcements of one company); the bound stops a feed whose
// paging loops from walking forever.
const MAX_PAGES_PER_WALK = 1000;

/** The `asx` announcement service: the ASX's per-company feed, with history by paging back. */
export class AsxSource implements AnnouncementSource {
  readonly name: PerCompanyServiceName;
  readonly marketWide = false;
  private readonly baseUrl: string;
  private readonly pageSize: number;
  private readonly cache: PageCache;
  private readonly http: VendorHttpClient;

  constructor(private readonly options: AsxSourceOptions) {
    this.name = options.name ?? 'asx';
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.http =
      options.http ??
      feedClient({
        vendor: this.name,
        baseUrls: [options.baseUrl],
        timeoutMs: options.timeoutMs,
        maxAttempts: options.maxAttempts,
        retryDelayMs: options.retryDelayMs,
        maxConcurrent: options.maxConcurrent,
        perMinute: options.perMinute,
      });
    this.pageSize = options.pageSize ?? 20;
    this.cache = new PageCache(
      options.cacheMaxPages ?? 200,
      options.cacheTtlMs ?? 10 * 60_000,
      options.now ?? (() => Date.now()),
    );
  }

  /** A new walk (an initial poll, a resync) reads the company's feed afresh, not pages of an earlier walk. */
  forget(ticker: string): void {
    this.cache.forget(`/company/${encodeURIComponent(ticker.toUpperCase())}/`);
  }

  /** How many pages the year-walk cache holds (tests). */
  get cachedPages(): number {
    return this.cache.size;
  }

  async latest(ticker: string): Promise<SourceAnnouncement[]> {
    const code = ticker.trim().toUpperCase();
    if (!code) return [];
    return (await this.fetchPage(this.firstPageUrl(code), code))?.items ?? [];
  }

  async announcementsOfYear(ticker: string, year: number): Promise<SourceAnnouncement[]> {
    const code = ticker.trim().toUpperCase();
    if (!code) return [];
    const { start, end } = sydneyYearBounds(year);
    const found: SourceAnnouncement[] = [];
    const seen = new Set<string>();
    let url: string | null = this.firstPageUrl(code);
    for (let pages = 0; url && pages < MAX_PAGES_PER_WALK && !seen.has(url); pages++) {
      seen.add(url);
      let page = this.cache.get(url);
      if (!page) {
        const fetched = await this.fetchPage(url, code);
        if (!fetched) return [];
        page = fetched;
        this.cache.set(url, page);
      }
      for (const item of page.items) {
        const at = Date.parse(item.releasedAt);
        if (at >= start && at < end) found.push(item);
      }
      const oldest = page.items.at(-1);
      // Newest first: once a page reaches back before the year, no later page can hold any of it.
      if (!oldest || Date.parse(oldest.releasedAt) < start) break;
      url = page.next;
    }
    return found;
  }

  download(documentUrl: string): Promise<SourceDocument> {
    return this.options.documents.download(documentUrl);
  }

  async close(): Promise<void> {
    await this.options.documents.close();
  }

  private firstPageUrl(code: string): string {
    return `${this.baseUrl}/asx/1/company/${encodeURIComponent(code)}/announcements?count=${this.pageSize}&market_sensitive=false`;
  }

  /** One page of the feed; null when the ticker is unknown (404). */
  private async fetchPage(url: string, code: string): Promise<AsxPage | null> {
    const answer = await getJson(this.http, url, asxPageSchema);
    if (!answer.found) return null;
    const body = answer.body;
    return {
      items: (body.data ?? []).map((item) => this.toAnnouncement(item, code)),
      next: body.paging_next_url ? resolveAgainst(this.baseUrl, body.paging_next_url) : null,
    };
  }

  private toAnnouncement(item: AsxItem, code: string): SourceAnnouncement {
    const link = item.url || item.relative_url;
    const announcement: SourceAnnouncement = {
      sourceKey: item.id,
      ticker: code,
      headline: item.header?.trim() ?? '',
      // Validated by the schema above.
      releasedAt: parseAsxTimestamp(item.document_release_date) ?? item.document_release_date,
      priceSensitive: item.market_sensitive ?? false,
      documentUrl: link ? resolveAgainst(this.baseUrl, link) : '',
    };
    if (item.number_of_pages != null) announcement.numberOfPages = item.number_of_pages;
    if (item.size) announcement.size = item.size;
    return announcement;
  }
}
