import { refineVendorUrls, secretsKeyOf, secretsKeyVariable, vendorUrl } from '@irp/platform';
import { z } from 'zod';

/** The stocks service's own variables (the platform's are added by defineService). */
export const stocksConfigSchema = z.object({
  /**
   * The address autocomplete service (a Places-type API: POST {url}/v1/places:autocomplete); `make up`
   * points it at the local stand-in. Unset: the order form's address is a plain field.
   */
  PLACES_BASE_URL: vendorUrl('PLACES_BASE_URL'),
  /** Its key (X-Goog-Api-Key); the stand-in takes any. Unset with a URL set: no autocomplete either. */
  PLACES_API_KEY: z
    .string()
    .optional()
    .transform((v) => (v && v.trim() ? v.trim() : undefined)),
  /**
   * Days an order never turned into a stock is kept (a prospective client's contact details, address and
   * sealed email-marketing key): older ones are deleted by the singleton job `stocks:purge-service-orders`,
   * every SERVICE_ORDER_PURGE_INTERVAL_MS. Orders made into a stock are kept (the stock's record of its order).
   */
  SERVICE_ORDER_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(180),
  SERVICE_ORDER_PURGE_INTERVAL_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .max(7 * 86_400_000)
    .default(6 * 60 * 60_000),
  /**
   * The AES-256-GCM key the email-marketing API keys given on the order form are encrypted with at rest
   * (32 bytes, hex or base64). Required in production; elsewhere a public development key is used.
   */
  STOCKS_SECRETS_KEY: secretsKeyVariable('STOCKS_SECRETS_KEY'),
});
export type StocksConfig = z.infer<typeof stocksConfigSchema>;

/** What production refuses at start (defineService's refineConfig): the address service URL that is not https. */
export function refineStocksConfig(c: StocksConfig & { NODE_ENV: string }, ctx: z.RefinementCtx): void {
  refineVendorUrls(c, ctx, ['PLACES_BASE_URL']);
}

/** The key order secrets are sealed with: STOCKS_SECRETS_KEY, or the development key outside production. */
export function stocksSecretsKey(config: { STOCKS_SECRETS_KEY?: string; NODE_ENV: string }): Buffer {
  return secretsKeyOf(
    config.STOCKS_SECRETS_KEY,
    config.NODE_ENV,
    'STOCKS_SECRETS_KEY',
    'the email-marketing API keys of service orders',
  );
}
