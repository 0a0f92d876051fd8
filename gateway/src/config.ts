import {
  baseConfigSchema,
  databaseConfigSchema,
  loadConfig,
  sealKeyOf,
  sealKeyProblem,
  sealKeyVariable,
} from '@irp/platform';
import { STOCK_LIST_PAGE_MAX } from '@irp/proto';
import { z } from 'zod';
import { DEVELOPMENT_TRUST_PROXY, trustProxySchema } from './common/trust-proxy';

const DEV_SECRET = 'development-only-secret-do-not-use-in-production!';

export const gatewayConfigSchema = baseConfigSchema
  .extend({
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().default('127.0.0.1'),
    /**
     * Whose X-Forwarded-For is believed: a hop count, addresses/CIDRs, or false (common/trust-proxy.ts).
     * Required in production (where a wrong guess makes every client share the ingress's sign-in limit, or
     * lets any client name its own address); `loopback` otherwise.
     */
    TRUST_PROXY: trustProxySchema,
    /**
     * The operations listener: with it set, the services' /health and /metrics are served there only (404 on
     * PORT; /health/live stays on PORT). Required in production. OPS_HOST: its address.
     */
    OPS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
    OPS_HOST: z.string().default('127.0.0.1'),
    /** Swagger UI and the OpenAPI document at /api/docs(-json); on by default except in production. */
    API_DOCS: z.enum(['true', 'false']).optional(),
    /** Signs the CSRF token and the order form's token; every gateway instance must share it. */
    SESSION_SECRET: z.string().min(32, 'SESSION_SECRET must be at least 32 characters').default(DEV_SECRET),
    /** Secure cookies (HTTPS only); on by default in production. */
    COOKIE_SECURE: z.enum(['true', 'false']).optional(),
    /** Serve the built web app from this directory (default in production: web/dist). */
    WEB_DIST: z.string().optional(),
    /** The shared counters of the rate limits (schema `gateway`): every instance must use one database. */
    DATABASE_URL: databaseConfigSchema.shape.DATABASE_URL,
    DATABASE_POOL_IDLE_MS: databaseConfigSchema.shape.DATABASE_POOL_IDLE_MS,
    /**
     * How long a request waits out the rate-limit store's database being briefly unreachable or out of
     * connection slots before answering 503 (0: at once).
     */
    LIMIT_STORE_RETRY_MS: z.coerce.number().int().min(0).max(60_000).default(15_000),
    /**
     * Failed sign-ins per username, and per client address, within LOGIN_THROTTLE_TTL_MS before each
     * further failure holds that username (address) for a doubling delay, from LOGIN_THROTTLE_FIRST_DELAY_MS
     * up to LOGIN_THROTTLE_MAX_DELAY_MS.
     * Successful sign-ins never count.
     */
    LOGIN_THROTTLE_LIMIT: z.coerce.number().int().min(1).max(10_000).default(10),
    LOGIN_THROTTLE_ADDRESS_LIMIT: z.coerce.number().int().min(1).max(100_000).default(100),
    LOGIN_THROTTLE_TTL_MS: z.coerce.number().int().min(1000).max(86_400_000).default(900_000),
    LOGIN_THROTTLE_FIRST_DELAY_MS: z.coerce.number().int().min(100).max(3_600_000).default(1000),
    LOGIN_THROTTLE_MAX_DELAY_MS: z.coerce.number().int().min(1000).max(86_400_000).default(900_000),
    /** How long a looked-up session user is reused before asking the users service again. */
    SESSION_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(5000),
    /** A service whose ping takes longer than this is `slow` on /health (busy: it still answers). */
    HEALTH_TIMEOUT_MS: z.coerce.number().int().min(100).max(10_000).default(1500),
    /** ... and `down` when it has not answered within this: a busy machine makes a service slow, not a 503. */
    HEALTH_DOWN_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
    /**
     * How long a combinedTicker -> stock id answer is reused by the per-stock role check. Short, because
     * another gateway instance may change a ticker; this instance's own changes clear it at once.
     */
    STOCK_DIRECTORY_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(5000),
    STOCK_DIRECTORY_CACHE_SIZE: z.coerce.number().int().min(1).max(1_000_000).default(5000),
    /**
     * How long the admin reports that read every stored file or stock (file cleanup, disk report) may take
     * before 503: they hash same-size PDFs across the whole store, far longer than an ordinary request.
     */
    ADMIN_REPORT_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(120_000),
    /**
     * How long a call that reaches the accounting system may take (refresh, contact and repeating invoice
     * creation, invoice PDF): it keeps the system's limits (60 a minute) and waits out its 429s.
     */
    ACCOUNTING_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(120_000),
    /**
     * How long a reports call that reads the market-data provider or many trades may take (the sync jobs,
     * Stock Data's update, generating a report over a long range).
     */
    REPORTS_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(180_000),
    /**
     * How many stocks a page of the staff dashboard's list holds on its way from the stocks service (and
     * in each request for the other services' columns); the answer is still the whole list.
     */
    STOCK_LIST_PAGE_SIZE: z.coerce.number().int().min(1).max(STOCK_LIST_PAGE_MAX).default(1000),
    /** How long the dashboards wait for each contributing service before showing its columns empty. */
    DASHBOARD_CONTRIBUTOR_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(3000),
    /**
     * How long GET /api/stock/{combinedTicker} waits for the announcements service before answering the
     * stock without its announcements (ADR 0004): short, because the page must not hang on it.
     */
    STOCK_PAGE_CONTRIBUTOR_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(1500),
    /**
     * Largest announcement PDF the save route accepts. The upload is held in memory while it is passed on
     * to the announcements service in chunks, so this also bounds what one upload costs the gateway.
     */
    ANNOUNCEMENT_MAX_PDF_BYTES: z.coerce
      .number()
      .int()
      .min(1024)
      .max(200 * 1024 * 1024)
      .default(20 * 1024 * 1024),
    /**
     * Largest JSON (or form-encoded) request body, on every route: the routes take form inputs. A larger
     * body is refused with 413 before any handler runs. The upload's file has its own cap (above).
     */
    JSON_BODY_MAX_BYTES: z.coerce
      .number()
      .int()
      .min(1024)
      .max(10 * 1024 * 1024)
      .default(100 * 1024),
    /** Widget API requests allowed per API key per window (counted in the store every instance shares). */
    WIDGET_RATE_LIMIT: z.coerce.number().int().min(1).max(1_000_000).default(300),
    WIDGET_RATE_WINDOW_MS: z.coerce.number().int().min(1000).max(3_600_000).default(60_000),
    /** Lookups of API keys no stock has, per client address per WIDGET_RATE_WINDOW_MS: guessing keys is slow. */
    WIDGET_UNKNOWN_KEY_LOOKUPS_PER_ADDRESS: z.coerce.number().int().min(1).max(100_000).default(20),
    /**
     * Comments posted through the widget per client address, and per API key, each COMMENT_RATE_WINDOW_MS
     * (counted in the store every gateway instance shares): a person asks a few questions; a script posting
     * more is refused with 429.
     */
    COMMENT_RATE_PER_ADDRESS: z.coerce.number().int().min(1).max(100_000).default(5),
    COMMENT_RATE_PER_KEY: z.coerce.number().int().min(1).max(1_000_000).default(100),
    COMMENT_RATE_WINDOW_MS: z.coerce.number().int().min(1000).max(86_400_000).default(600_000),
    /**
     * Public service orders per client address each ORDER_RATE_WINDOW_MS (shared store): a company orders
     * once; a script submitting more is refused with 429. Only forms that pass validation count.
     */
    ORDER_RATE_PER_ADDRESS: z.coerce.number().int().min(1).max(100_000).default(5),
    ORDER_RATE_WINDOW_MS: z.coerce.number().int().min(1000).max(86_400_000).default(3_600_000),
    /**
     * The order form's minimum fill time (issue 34): an order is taken from ORDER_FORM_MIN_FILL_MS after the
     * form's token was issued (GET /api/serviceorder/form-token, when the form is shown) until
     * ORDER_FORM_TOKEN_MAX_AGE_MS after; sooner (a script posting at once), later, or without a valid token:
     * 400. A token is always required; 0 takes it at once (the tests' gateways).
     */
    ORDER_FORM_MIN_FILL_MS: z.coerce.number().int().min(0).max(600_000).default(3000),
    ORDER_FORM_TOKEN_MAX_AGE_MS: z.coerce
      .number()
      .int()
      .min(60_000)
      .max(7 * 86_400_000)
      .default(14_400_000),
    /** The order form's address suggestions per client address per minute (each one a paid vendor call). */
    ADDRESS_LOOKUPS_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(60),
    /**
     * The address vendor's budget (every lookup is a paid call): across every client and gateway instance,
     * ADDRESS_LOOKUP_BUDGET_PER_MINUTE and ADDRESS_LOOKUP_BUDGET_PER_DAY lookups (shared store), and
     * ADDRESS_LOOKUPS_PER_SESSION per autocomplete session (the form's session token; lookups without one
     * count as one session per client address). Spent: `available: false` with a note, and the form takes
     * the address as typed.
     */
    ADDRESS_LOOKUP_BUDGET_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(200),
    ADDRESS_LOOKUP_BUDGET_PER_DAY: z.coerce.number().int().min(1).max(10_000_000).default(5000),
    ADDRESS_LOOKUPS_PER_SESSION: z.coerce.number().int().min(1).max(10_000).default(30),
    /**
     * The public report page's date-range searches (each a new report computed and stored) per client address
     * and per report each REPORT_SEARCH_RATE_WINDOW_MS (shared store): a reader tries a few ranges; a script
     * looping is refused with 429. The reports service also keeps at most REPORT_REGENERATIONS_PER_REPORT.
     */
    REPORT_SEARCH_RATE_PER_ADDRESS: z.coerce.number().int().min(1).max(100_000).default(20),
    REPORT_SEARCH_RATE_PER_REPORT: z.coerce.number().int().min(1).max(100_000).default(60),
    REPORT_SEARCH_RATE_WINDOW_MS: z.coerce.number().int().min(1000).max(86_400_000).default(3_600_000),
    /**
     * Public announcement PDFs per client address each PUBLIC_PDF_RATE_WINDOW_MS (shared store; issue 34): a
     * reader or a company website's visitors behind one address open dozens, a script fetching every guid
     * in a loop is refused with 429. The answers are cacheable (public, max-age=300) for a CDN in front.
     */
    PUBLIC_PDF_RATE_PER_ADDRESS: z.coerce.number().int().min(1).max(1_000_000).default(300),
    PUBLIC_PDF_RATE_WINDOW_MS: z.coerce.number().int().min(1000).max(86_400_000).default(60_000),
    /**
     * The public halves of the services' seal keys (issue 34): a password crosses the bus sealed for the
     * users service, a provider API key for the email-marketing service; each service alone holds its private
     * half (SEAL_PRIVATE_KEY). Required in production; the development pairs elsewhere.
     */
    USERS_SEAL_PUBLIC_KEY: sealKeyVariable('USERS_SEAL_PUBLIC_KEY'),
    EMAIL_MARKETING_SEAL_PUBLIC_KEY: sealKeyVariable('EMAIL_MARKETING_SEAL_PUBLIC_KEY'),
  })
  .superRefine((c, ctx) => {
    if (c.NODE_ENV === 'production' && c.SESSION_SECRET === DEV_SECRET) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ['SESSION_SECRET'],
        message: 'SESSION_SECRET must be set in production',
      });
    }
    if (c.NODE_ENV === 'production' && c.TRUST_PROXY === undefined) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ['TRUST_PROXY'],
        message:
          'TRUST_PROXY must be set in production: the proxies in front of the gateway (1 for one ingress hop, their addresses or CIDR ranges), or false when clients connect directly',
      });
    }
    for (const [variable, recipient] of [
      ['USERS_SEAL_PUBLIC_KEY', 'users'],
      ['EMAIL_MARKETING_SEAL_PUBLIC_KEY', 'email-marketing'],
    ] as const) {
      const problem = sealKeyProblem(c[variable], c.NODE_ENV, 'publicKey', recipient);
      if (problem) ctx.addIssue({ code: z.ZodIssueCode.custom, path: [variable], message: problem });
    }
    if (c.ORDER_FORM_MIN_FILL_MS >= c.ORDER_FORM_TOKEN_MAX_AGE_MS) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ['ORDER_FORM_MIN_FILL_MS'],
        message:
          'ORDER_FORM_MIN_FILL_MS must be less than ORDER_FORM_TOKEN_MAX_AGE_MS, or no order is ever taken',
      });
    }
    if (c.NODE_ENV === 'production' && c.OPS_PORT === undefined) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ['OPS_PORT'],
        message: 'OPS_PORT must be set in production: /health and /metrics are not served on the public port',
      });
    }
  })
  .transform((c) => ({
    ...c,
    TRUST_PROXY: c.TRUST_PROXY ?? [...DEVELOPMENT_TRUST_PROXY],
    cookieSecure: c.COOKIE_SECURE ? c.COOKIE_SECURE === 'true' : c.NODE_ENV === 'production',
    apiDocs: c.API_DOCS ? c.API_DOCS === 'true' : c.NODE_ENV !== 'production',
    sealKeys: {
      users: sealKeyOf(c.USERS_SEAL_PUBLIC_KEY, c.NODE_ENV, 'USERS_SEAL_PUBLIC_KEY', 'publicKey', 'users'),
      'email-marketing': sealKeyOf(
        c.EMAIL_MARKETING_SEAL_PUBLIC_KEY,
        c.NODE_ENV,
        'EMAIL_MARKETING_SEAL_PUBLIC_KEY',
        'publicKey',
        'email-marketing',
      ),
    },
  }));

export type GatewayConfig = z.infer<typeof gatewayConfigSchema>;
export const GATEWAY_CONFIG = Symbol('GATEWAY_CONFIG');
export const loadGatewayConfig = (env: NodeJS.ProcessEnv = process.env): GatewayConfig =>
  loadConfig(gatewayConfigSchema, env);
