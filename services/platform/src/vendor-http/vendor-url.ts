import { z } from 'zod';

/**
 * A vendor's base URL as a service's config reads it: optional (unset: the vendor is not configured),
 * trimmed, without trailing slashes, http(s). Plain http is for the stand-ins of `make up` and the tests;
 * production refuses it (refineVendorUrls).
 */
export const vendorUrl = (name: string) =>
  z
    .string()
    .optional()
    .transform((v) => (v && v.trim() ? v.trim().replace(/\/+$/, '') : undefined))
    .refine((v) => v === undefined || /^https?:\/\//i.test(v), `${name} must be an http(s):// URL`);

/**
 * Production speaks to vendors over TLS only: each of `names` that is set must be https (a service's
 * refineConfig calls this, so the process refuses to start, listing each). Credentials and answers on plain
 * http could be read or changed by anyone on the way.
 */
export function refineVendorUrls<C extends { NODE_ENV?: string }>(
  config: C,
  ctx: z.RefinementCtx,
  names: readonly (keyof C & string)[],
): void {
  if (config.NODE_ENV !== 'production') return;
  for (const name of names) {
    const value = config[name];
    if (typeof value === 'string' && !/^https:\/\//i.test(value))
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: [name],
        message: `must be an https:// URL in production (${value}): a vendor is only spoken to over TLS`,
      });
  }
}
