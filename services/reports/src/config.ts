import { refineVendorUrls, vendorUrl } from '@irp/platform';
import { DEMO_MARKET_DATA_API_KEY } from '@irp/proto';
import { z } from 'zod';

const bool = z
  .string()
  .optional()
  .transform((v) => v !== undefined && ['1', 'true', 'yes', 'on'].includes(v.trim().toLowerCase()));

/**
 * The reports service's own variables (the platform's are added by defineService). Without
 * MARKET_DATA_BASE_URL no provider is configured: the jobs do not run and the routes that need the provider
 * say so; stored data and reports still work. `make up` and the tests point it at the market-data stand-in.
 */
export const reportsConfigSchema = z.object({
  /** The market-data provider's API base (the stand-in's in `make up`). */
  MARKET_DATA_BASE_URL: vendorUrl('MARKET_DATA_BASE_URL'),
  /** Sent as X-Api-Key. */
  MARKET_DATA_API_KEY: z.string().min(1).default(DEMO_MARKET_DATA_API_KEY),
  /** Per attempt of one call to the provider. */
  MARKET_DATA_TIMEOUT_MS: z.coerce.number().int().min(100).default(15_000),
  /** Our side of the provider's limits. */
  MARKET_DATA_MAX_CONCURRENT: z.coerce.number().int().min(1).max(50).default(4),
  MARKET_DATA_PER_MINUTE: z.coerce.number().int().min(1).default(1000),
  /** Attempts of a read (429 / 503 / network errors are retried, honouring Retry-After). */
  MARKET_DATA_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(10).default(4),
  MARKET_DATA_MAX_RETRY_AFTER_MS: z.coerce.number().int().min(0).default(65_000),
  /** How often the watchlist's quotes are read (singleton job). */
  WATCHLIST_SYNC_INTERVAL_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .default(15 * 60_000),
  /** How often the prior-day job looks for trading days not loaded yet (singleton job; loaded days are skipped). */
  PRIOR_DAY_INTERVAL_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .default(60 * 60_000),
  /**
   * Calendar days of trades the history job keeps loaded (the days before the prior day not loaded yet are
   * read at start and on each prior-day run; about three months by default). 0: no history, only the
   * prior day (the prior-day route).
   */
  MARKET_HISTORY_DAYS: z.coerce.number().int().min(0).max(3650).default(92),
  /**
   * Trading days after which the provider publishes a day's trades with broker ids (T+3: the trades of a
   * Monday on Thursday). The jobs ask for the latest day published by now; a younger day is not a gap.
   */
  MARKET_DATA_PUBLICATION_LAG_DAYS: z.coerce.number().int().min(1).max(20).default(3),
  /**
   * Trading days past the lag a day may still be unpublished before it is a gap (recorded, mailed once):
   * a provider publishing a little late is retried at the jobs' next runs, not reported.
   */
  MARKET_DATA_PUBLICATION_GRACE_DAYS: z.coerce.number().int().min(0).max(20).default(2),
  /** Stock-days loaded at once by the history job. */
  MARKET_LOAD_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(3),
  /**
   * How long a public regeneration (the report page's date-range form) is kept before the singleton job
   * `reports:prune-regenerations` deletes it (default 7 days): its link works that long.
   */
  REPORT_REGENERATION_TTL_MS: z.coerce
    .number()
    .int()
    .min(60_000)
    .default(7 * 86_400_000),
  /** Public regenerations kept at once per staff report (distinct ranges); beyond, a search is refused. */
  REPORT_REGENERATIONS_PER_REPORT: z.coerce.number().int().min(1).max(10_000).default(50),
  /** How often expired public regenerations are pruned (singleton job). */
  REPORT_PRUNE_INTERVAL_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .default(60 * 60_000),
  /** Turn the scheduled jobs off (tests drive them through their routes). */
  MARKET_JOBS_DISABLED: bool,
});

export type ReportsConfig = z.infer<typeof reportsConfigSchema>;

/**
 * What production refuses at start (defineService's refineConfig): a provider URL that is not https, and,
 * like the platform's development secrets, the market-data stand-in's demo key (MARKET_DATA_API_KEY's default, published in this repository) sent to
 * a configured provider. Without MARKET_DATA_BASE_URL no provider is called and the key is unused.
 */
export function refineReportsConfig(c: ReportsConfig & { NODE_ENV: string }, ctx: z.RefinementCtx): void {
  refineVendorUrls(c, ctx, ['MARKET_DATA_BASE_URL']);
  if (c.NODE_ENV !== 'production' || !c.MARKET_DATA_BASE_URL) return;
  if (c.MARKET_DATA_API_KEY === DEMO_MARKET_DATA_API_KEY)
    ctx.addIssue({
      code: z.ZodIssueCode.custom,
      path: ['MARKET_DATA_API_KEY'],
      message:
        "the market-data stand-in's demo key, published in this repository; set the provider's key in production",
    });
}
