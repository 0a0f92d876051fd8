import type { VendorHttpClient } from '@irp/platform';
import { z } from 'zod';
import { AsxSource, parseAsxTimestamp } from './asx.source';
import { DocumentFetcher } from './document-fetcher';
import { feedClient, getJson } from './http';
import { AnnouncementSource, SourceAnnouncement, SourceDocument, SourceUnavailableError } from './source';

export interface Asx2SourceOptions {
  /** Markit Digital's feed (ASX2_BASE_URL). */
  baseUrl: string;
  /** The ASX per-company feed (ASX_BASE_URL), for history: the market feed only has the latest items. */
  asxBaseUrl: string;
  timeoutMs: number;
  documents: DocumentFetcher;
  /** Attempts of one request when a feed is busy or down (default 1: the poller retries), and the first backoff delay. */
  maxAttempts?: number;
  retryDelayMs?: number;
  /** Requests open at once and per minute to this service's hosts (see SOURCE_MAX_CONCURRENT). */
  maxConcurrent?: number;
  perMinute?: number;
  itemsPerPage?: number;
  /** Most pages read per market poll: the feed is newest first, so older pages only matter after an outage. */
  maxPages?: number;
}

// The two feeds' items as recorded (vendor-descriptions/asx): the whole-market feed's name their company
// (`symbol`); the per-company feed's do not, the company's `symbol` is on `data` once.
const markitItemSchema = z.object({
  symbol: z.string().min(1).nullish(),
  headline: z.string().nullish(),
  date: z.string().refine((v) => parseAsxTimestamp(v) !== null, 'not a timestamp'),
  documentKey: z.string().min(1),
  isPriceSensitive: z.boolean().nullish(),
  announcementType: z.string().nullish(),
  fileSize: z.string().nullish(),
});
const markitPageSchema = z.object({
  data: z.object({ items: z.array(markitItemSchema).nullish(), symbol: z.string().nullish() }),
});
type MarkitItem = z.infer<typeof markitItemSchema>;

/**
 * The natural key of a Markit document. Its documentKey embeds the ASX's own announcement id
 * ('2924-02791431-6A1137856' holds 02791431, the `id` of the per-company feed), so the same document keeps
 * one key whichever ASX feed found it and switching services does not store it twice.
 */
export function sourceKeyOfDocumentKey(documentKey: string): string {
  return /^\d+-(\d{6,})-[0-9A-Z]+$/i.exec(documentKey)?.[1] ?? documentKey;
}

/**
 * The `asx2` announcement service: Markit Digital's whole-market feed (one call for every ticker), its
 * per-company variant for one ticker, and the ASX per-company feed for the history of a year.
 */
export class Asx2Source implements AnnouncementSource {
  readonly name = 'asx2';
  readonly marketWide = true;
  private readonly baseUrl: string;
  private readonly history: AsxSource;
  private readonly http: VendorHttpClient;

  constructor(private readonly options: Asx2SourceOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    // One client for both feeds: the market feed's hosts and the ASX's, limited together.
    this.http = feedClient({
      vendor: 'asx2',
      baseUrls: [options.baseUrl, options.asxBaseUrl],
      timeoutMs: options.timeoutMs,
      maxAttempts: options.maxAttempts,
      retryDelayMs: options.retryDelayMs,
      maxConcurrent: options.maxConcurrent,
      perMinute: options.perMinute,
    });
    this.history = new AsxSource({
      baseUrl: options.asxBaseUrl,
      timeoutMs: options.timeoutMs,
      documents: options.documents,
      http: this.http,
    });
  }
  forget(ticker: string): void {
    this.history.forget(ticker);
  }

  async latestMarket(seen?: ReadonlySet<string>): Promise<SourceAnnouncement[]> {
    const itemsPerPage = this.options.itemsPerPage ?? 100;
    const maxPages = this.options.maxPages ?? 20;
    const byKey = new Map<string, SourceAnnouncement>();
    for (let page = 0; page < maxPages; page++) {
      const url = `${this.baseUrl}/asx-research/1.0/markets/announcements?page=${page}&itemsPerPage=${itemsPerPage}&priceSensitiveOnly=false`;
      const items = await this.fetchItems(url);
      // New releases shift the pages while they are read: an item may come twice, once is kept.
      for (const item of items) if (!byKey.has(item.sourceKey)) byKey.set(item.sourceKey, item);
      if (items.length < itemsPerPage) break;
      // Newest first: a page reaching what an earlier read returned is the last one with anything new.
      if (seen && items.some((item) => seen.has(item.sourceKey))) break;
    }
    return [...byKey.values()];
  }

  async latest(ticker: string): Promise<SourceAnnouncement[]> {
    const code = ticker.trim().toUpperCase();
    if (!code) return [];
    return this.fetchItems(
      `${this.baseUrl}/asx-research/1.0/companies/${encodeURIComponent(code.toLowerCase())}/announcements`,
      code,
    );
  }

  announcementsOfYear(ticker: string, year: number): Promise<SourceAnnouncement[]> {
    return this.history.announcementsOfYear(ticker, year);
  }

  download(documentUrl: string): Promise<SourceDocument> {
    return this.options.documents.download(documentUrl);
  }

  async close(): Promise<void> {
    await this.options.documents.close();
  }

  /**
   * The items of one answer; [] for 404 (an unknown ticker). An item's company is its own `symbol` (the
   * whole-market feed), else the answer's (the per-company feed), else the code asked for.
   */
  private async fetchItems(url: string, code?: string): Promise<SourceAnnouncement[]> {
    const answer = await getJson(this.http, url, markitPageSchema);
    if (!answer.found) return [];
    const body = answer.body;
    return (body.data.items ?? []).map((item, i) => {
      const ticker = (item.symbol || body.data.symbol || code)?.trim().toUpperCase();
      if (!ticker)
        throw new SourceUnavailableError(
          `${url} answered a body its API does not describe (data.items.${i}.symbol: missing)`,
        );
      return this.toAnnouncement(item, ticker);
    });
  }

  private toAnnouncement(item: MarkitItem, ticker: string): SourceAnnouncement {
    const announcement: SourceAnnouncement = {
      sourceKey: sourceKeyOfDocumentKey(item.documentKey),
      ticker,
      headline: item.headline?.trim() ?? '',
      releasedAt: parseAsxTimestamp(item.date) ?? item.date,
      priceSensitive: item.isPriceSensitive ?? false,
      documentUrl: `${this.baseUrl}/asx-research/1.0/file/${encodeURIComponent(item.documentKey)}`,
    };
    if (item.fileSize) announcement.size = item.fileSize;
    return announcement;
  }
}
