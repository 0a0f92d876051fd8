import { isIP } from 'node:net';
import { z } from 'zod';

/** proxy-addr's names for address ranges (what Express's `trust proxy` takes besides addresses). */
const RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'] as const;

/** Outside production, unset TRUST_PROXY believes a proxy on the same host (make up, the tests). */
export const DEVELOPMENT_TRUST_PROXY: readonly string[] = ['loopback'];

/**
 * Which proxies' X-Forwarded-For the gateway believes (Express's `trust proxy`), so `req.ip` (the address
 * the login and widget limits count) is the client's, not the ingress's:
 * - a hop count (`1`: the one proxy in front; the address it saw is the client),
 * - or a comma list of addresses, CIDR ranges and the names loopback, linklocal, uniquelocal,
 * - or `false`: no proxy, the socket's address is the client.
 * A request from any other address keeps its socket address whatever X-Forwarded-For says. Unset is
 * undefined here: the gateway's config refuses it in production and reads DEVELOPMENT_TRUST_PROXY elsewhere.
 */
export const trustProxySchema = z
  .string()
  .trim()
  .optional()
  .transform((value, ctx): number | string[] | false | undefined => {
    if (value === undefined) return undefined;
    if (value === 'false' || value === '0') return false;
    if (/^\d+$/.test(value)) {
      const hops = Number(value);
      if (hops <= 32) return hops;
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'TRUST_PROXY: a hop count is at most 32' });
      return z.NEVER;
    }
    const entries = value.split(',').map((e) => e.trim());
    const bad = entries.filter((e) => !isTrustEntry(e));
    if (bad.length) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        message: `TRUST_PROXY: not a hop count, address, CIDR range or ${RANGE_NAMES.join('/')}: ${bad.join(', ')}`,
      });
      return z.NEVER;
    }
    return entries;
  });

function isTrustEntry(entry: string): boolean {
  if ((RANGE_NAMES as readonly string[]).includes(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  const family = isIP(address ?? '');
  if (!family || rest.length) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}
