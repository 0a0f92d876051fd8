/**
 * Where announcements come from (spec section 3, system settings' announcementService): one interface,
 * implemented by the ASX adapters (asx per company, asx2 whole market), the deterministic mock, and the
 * refusing placeholders for westpac and iress (no public API). The poller, the initial poll and reconcile
 * only ever see this interface.
 */

/** The announcement services system settings can choose (spec section 3). */
export const ANNOUNCEMENT_SERVICES = ['asx', 'asx2', 'westpac', 'iress', 'mock'] as const;
export type AnnouncementServiceName = (typeof ANNOUNCEMENT_SERVICES)[number];

/** One announcement as a source reports it, before it is stored. */
export interface SourceAnnouncement {
  /** The source's own id of the document: with the stock, the natural key (stored once, whatever polls it). */
  sourceKey: string;
  /** Upper-case ticker, e.g. 'BHP'. */
  ticker: string;
  headline: string;
  /** Release time, ISO 8601 with offset or Z. */
  releasedAt: string;
  priceSensitive: boolean;
  /** Absolute URL of the document (possibly a terms page that leads to the PDF), or '' when none. */
  documentUrl: string;
  numberOfPages?: number;
  /** As the source states it, e.g. '224.2KB'. */
  size?: string;
}

/** A downloaded document: checked to start with %PDF and to be within the size limit. */
export interface SourceDocument {
  bytes: Buffer;
  /** The URL the PDF itself came from (after any terms page). */
  finalUrl: string;
}

export interface AnnouncementSource {
  readonly name: AnnouncementServiceName;
  /**
   * True when one call returns the whole market (asx2): the scheduler publishes one market-wide poll per
   * interval instead of one per stock, and the poller fans it out by ticker.
   */
  readonly marketWide: boolean;
  /** The latest announcements of one ticker (newest first); [] for a ticker the source does not know. */
  latest(ticker: string): Promise<SourceAnnouncement[]>;
  /**
   * The latest announcements of the whole market (newest first); only when `marketWide`. With `seen` (the
   * keys an earlier read returned), reading stops after the first page that holds one of them: what lies
   * beyond was read before.
   */
  latestMarket?(seen?: ReadonlySet<string>): Promise<SourceAnnouncement[]>;
  /**
   * Every announcement of one ticker released in the calendar year `year` (Sydney time), for the initial
   * poll and resync, which walk the years from the stock's announcementStartYear to now.
   */
  announcementsOfYear(ticker: string, year: number): Promise<SourceAnnouncement[]>;
  /** Forgets what the source cached of a ticker, so the next history walk reads it afresh (optional). */
  forget?(ticker: string): void;
  /** Downloads a document: throws DocumentRefusedError when it is not a PDF or is too large. */
  download(documentUrl: string): Promise<SourceDocument>;
}

/** A document that was fetched but is not acceptable (not %PDF, too large): the announcement is kept without it. */
export class DocumentRefusedError extends Error {
  constructor(
    message: string,
    readonly url: string,
  ) {
    super(message);
    this.name = 'DocumentRefusedError';
  }
}

/** The source could not be reached or answered badly (network, 5xx, timeout, unparseable body): retried with backoff. */
export class SourceUnavailableError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    /** The source's Retry-After on a 429 or 503, in ms (capped): the poller waits at least this long. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'SourceUnavailableError';
  }
}

/** The source cannot be used as configured (westpac/iress without a base URL): saving it is refused with this message. */
export class SourceNotConfiguredError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SourceNotConfiguredError';
  }
}
