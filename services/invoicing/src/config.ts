import { refineVendorUrls, vendorUrl } from '@irp/platform';
import { DEMO_ACCOUNTING_CLIENT } from '@irp/proto';
import { z } from 'zod';

/**
 * The invoicing service's own variables (the platform's are added by defineService). Without
 * ACCOUNTING_BASE_URL the accounting system is not configured: nothing is synced and the routes that need
 * it say so. `make up` and the tests point it at the accounting stand-in (services/manifest.json).
 */
export const invoicingConfigSchema = z.object({
  /** The Accounting API's base, e.g. https://api.xero.com/api.xro/2.0 (the stand-in's in `make up`). */
  ACCOUNTING_BASE_URL: vendorUrl('ACCOUNTING_BASE_URL'),
  /** The identity server's token endpoint (client credentials). */
  ACCOUNTING_TOKEN_URL: vendorUrl('ACCOUNTING_TOKEN_URL'),
  /** The custom connection's client id and secret, and the organisation (tenant) it reads. */
  ACCOUNTING_CLIENT_ID: z.string().min(1).default(DEMO_ACCOUNTING_CLIENT.clientId),
  ACCOUNTING_CLIENT_SECRET: z.string().min(1).default(DEMO_ACCOUNTING_CLIENT.clientSecret),
  ACCOUNTING_TENANT_ID: z.string().default(DEMO_ACCOUNTING_CLIENT.tenantId),
  /**
   * The accounting system's web app, for the links to an invoice and a repeating invoice (e.g.
   * https://go.xero.com); no links when unset.
   */
  ACCOUNTING_APP_URL: vendorUrl('ACCOUNTING_APP_URL'),
  /** How often invoices changed since the last sync are read (the scheduled, incremental sync). */
  ACCOUNTING_SYNC_INTERVAL_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .default(5 * 60_000),
  /** Repeating invoices have no change date: they are read again at least this often (and on refresh). */
  ACCOUNTING_REPEATING_REFRESH_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .default(60 * 60_000),
  /** Per attempt of one call to the accounting system. */
  ACCOUNTING_TIMEOUT_MS: z.coerce.number().int().min(100).default(15_000),
  /** The accounting system's limits (Xero's: 5 at once, 60 a minute). */
  ACCOUNTING_MAX_CONCURRENT: z.coerce.number().int().min(1).max(50).default(5),
  ACCOUNTING_PER_MINUTE: z.coerce.number().int().min(1).default(60),
  /** The longest wait a 429's Retry-After is honoured for before a call gives up. */
  ACCOUNTING_MAX_RETRY_AFTER_MS: z.coerce.number().int().min(0).default(65_000),
  /** The account code of the repeating invoices' line (the sales account). */
  ACCOUNTING_SALES_ACCOUNT_CODE: z.string().min(1).max(10).default('200'),
  /** Who reminder mails are signed by. */
  BILLING_CONTACT_NAME: z.string().min(1).max(200).default('IR Portal Accounts'),
  BILLING_CONTACT_EMAIL: z.string().email().default('accounts@irportal.local'),
});

export type InvoicingConfig = z.infer<typeof invoicingConfigSchema>;

/** What production refuses at start (defineService's refineConfig): an accounting system URL that is not https. */
export function refineInvoicingConfig(c: InvoicingConfig & { NODE_ENV: string }, ctx: z.RefinementCtx): void {
  refineVendorUrls(c, ctx, ['ACCOUNTING_BASE_URL', 'ACCOUNTING_TOKEN_URL', 'ACCOUNTING_APP_URL']);
}
