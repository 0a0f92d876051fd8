import type { SessionUserDto } from '@irp/proto';
import { clientStockTabs, type ClientStockTab } from '@/lib/tabs/stockPageTabs';

type SessionUser = SessionUserDto | null | undefined;

/**
 * The tabs the user's roles on the stock allow, in order. Features register them
 * (lib/tabs/stockPageTabs.ts); each is gated by one role on the stock (spec sections 2 and 6).
 */
export function allowedTabs(roles: readonly string[], user: SessionUser = null): ClientStockTab[] {
  return clientStockTabs.allowed({ user, roles });
}

/** The `?tab=` value as a tab key (its key, title or an alias; case and spacing ignored), or undefined. */
export function tabKeyOf(param: string | null | undefined): string | undefined {
  return clientStockTabs.find(param)?.key;
}

/**
 * The tab to show: the one the route asks for if allowed, else Config, else the first allowed tab;
 * undefined when the user holds none of the tabs' roles.
 */
export function activeTabFor(
  roles: readonly string[],
  param: string | null | undefined,
  user: SessionUser = null,
): string | undefined {
  const allowed = allowedTabs(roles, user).map((t) => t.key);
  const wanted = tabKeyOf(param);
  if (wanted && allowed.includes(wanted)) return wanted;
  if (allowed.includes('config')) return 'config';
  return allowed[0];
}
