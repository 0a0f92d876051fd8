import { z } from 'zod';

const optionalUrl = (name: string) =>
  z
    .string()
    .optional()
    .transform((v) => (v && v.trim() ? v.trim().replace(/\/+$/, '') : undefined))
    .refine((v) => v === undefined || /^https?:\/\//.test(v), `${name} must be an http(s):// URL`);

/** The stocks service's own variables (the platform's are added by defineService). */
export const stocksConfigSchema = z.object({
  /**
   * The address autocomplete service (a Places-type API: POST {url}/v1/places:autocomplete); `make up`
   * points it at the local stand-in. Unset: the order form's address is a plain field.
   */
  PLACES_BASE_URL: optionalUrl('PLACES_BASE_URL'),
  /** Its key (X-Goog-Api-Key); the stand-in takes any. Unset with a URL set: no autocomplete either. */
  PLACES_API_KEY: z
    .string()
    .optional()
    .transform((v) => (v && v.trim() ? v.trim() : undefined)),
});
export type StocksConfig = z.infer<typeof stocksConfigSchema>;
