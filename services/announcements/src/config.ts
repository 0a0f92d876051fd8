import { refineVendorUrls, repoRoot, vendorUrl, type ServiceConfig } from '@irp/platform';
import { join } from 'node:path';
import { z } from 'zod';

/** The announcements service's own variables (the platform's are added by defineService). */
export const announcementsConfigSchema = z.object({
  /** Where PDFs are stored (the storage interface's local directory). */
  DATA_DIR: z.string().default(() => join(repoRoot(), '.local', 'data', 'announcements')),
  /** The ASX per-company feed (`asx`); `make up` points it at the local stand-in. */
  ASX_BASE_URL: vendorUrl('ASX_BASE_URL'),
  /** The whole-market feed (`asx2`); defaults to ASX_BASE_URL (the stand-in speaks both shapes). */
  ASX2_BASE_URL: vendorUrl('ASX2_BASE_URL'),
  WESTPAC_BASE_URL: vendorUrl('WESTPAC_BASE_URL'),
  IRESS_BASE_URL: vendorUrl('IRESS_BASE_URL'),
  /**
   * The announcement service of a fresh install's system settings; default the first with a feed URL (asx,
   * westpac, iress), else mock (development only: production refuses mock and a missing feed).
   */
  DEFAULT_ANNOUNCEMENT_SERVICE: z.enum(['asx', 'asx2', 'westpac', 'iress', 'mock']).optional(),
  /**
   * A polled announcement found more than this many hours after its release is not sent automatically
   * (a stock newly polled, a source catching up after an outage); it stays available for a manual send.
   */
  AUTO_SEND_MAX_AGE_HOURS: z.coerce
    .number()
    .min(0.1)
    .max(24 * 30)
    .default(24),
  /** How often the scheduler publishes poll work. */
  POLL_INTERVAL_MS: z.coerce.number().int().min(100).default(60_000),
  /** How many stocks one poller polls at a time. */
  POLL_CONCURRENCY: z.coerce.number().int().min(1).max(200).default(16),
  /** A source call slower than this fails (and is retried with backoff). */
  SOURCE_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  /** Requests open at once to the announcement service's hosts, per process (feeds and documents each). */
  SOURCE_MAX_CONCURRENT: z.coerce.number().int().min(1).max(200).default(16),
  /** Requests started per rolling minute to them, per process; unset: no limit. */
  SOURCE_MAX_PER_MINUTE: z.coerce.number().int().min(1).optional(),
  /** Consecutive failed polls of the source before the error email is sent (once per streak). */
  SOURCE_FAILURE_STREAK: z.coerce.number().int().min(1).default(3),
  /** Largest PDF accepted, downloaded or uploaded. */
  MAX_PDF_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(20 * 1024 * 1024),
  /**
   * Public hosts announcement documents may be fetched from besides the configured feeds' hosts (comma list;
   * `*.example.com` for subdomains); default the ASX site and Markit Digital. They must resolve to public
   * addresses: a stand-in on a private address is only reachable as a configured base URL.
   */
  DOCUMENT_HOSTS: z
    .string()
    .optional()
    .transform((v) =>
      v === undefined
        ? undefined
        : v
            .split(',')
            .map((h) => h.trim().toLowerCase())
            .filter(Boolean),
    ),
  /** The system's Chromium for browser-automation mode. */
  CHROMIUM_PATH: z.string().default('/usr/bin/chromium'),
});
export type AnnouncementsConfig = ServiceConfig<typeof announcementsConfigSchema.shape>;

/** Why production refuses the mock source: the one wording for start, settings save and polls. */
export const MOCK_IN_PRODUCTION_MESSAGE =
  'The mock announcement service is not available in production: it makes up announcements, price-sensitive ones included, for real tickers';

/** The sources that have a feed URL configured (asx2 needs ASX_BASE_URL too: its history comes from there). */
export function configuredFeeds(c: AnnouncementsConfig): Array<'asx' | 'asx2' | 'westpac' | 'iress'> {
  const feeds: Array<'asx' | 'asx2' | 'westpac' | 'iress'> = [];
  if (c.ASX_BASE_URL) feeds.push('asx', 'asx2');
  if (c.WESTPAC_BASE_URL) feeds.push('westpac');
  if (c.IRESS_BASE_URL) feeds.push('iress');
  return feeds;
}

/**
 * What production refuses at start (defineService's refineConfig): a feed URL that is not https; the mock
 * source, which would make up price-sensitive announcements for real tickers and could send them to real
 * subscribers; and a missing feed, with which a fresh install's settings would fall back to that mock.
 */
export function refineAnnouncementsConfig(c: AnnouncementsConfig, ctx: z.RefinementCtx): void {
  refineVendorUrls(c, ctx, ['ASX_BASE_URL', 'ASX2_BASE_URL', 'WESTPAC_BASE_URL', 'IRESS_BASE_URL']);
  if (c.NODE_ENV !== 'production') return;
  const issue = (path: string, message: string) =>
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: [path], message });
  if (c.DEFAULT_ANNOUNCEMENT_SERVICE === 'mock')
    issue('DEFAULT_ANNOUNCEMENT_SERVICE', MOCK_IN_PRODUCTION_MESSAGE);
  const feeds = configuredFeeds(c);
  if (!feeds.length)
    issue(
      'ASX_BASE_URL',
      'No announcement feed is configured: set ASX_BASE_URL (or WESTPAC_BASE_URL or IRESS_BASE_URL); production never falls back to the mock source',
    );
  else if (c.DEFAULT_ANNOUNCEMENT_SERVICE && c.DEFAULT_ANNOUNCEMENT_SERVICE !== 'mock')
    if (!(feeds as string[]).includes(c.DEFAULT_ANNOUNCEMENT_SERVICE))
      issue(
        'DEFAULT_ANNOUNCEMENT_SERVICE',
        `${c.DEFAULT_ANNOUNCEMENT_SERVICE} has no feed URL configured (configured: ${feeds.join(', ')})`,
      );
}
