import { StockRole } from '@irp/proto';

/** The client stock page's tabs, each gated by one role on the stock (spec sections 2 and 6). */
export const CLIENT_STOCK_TABS = [
  { key: 'config', label: 'Config', role: StockRole.ViewConfig },
  { key: 'announcements', label: 'Announcements', role: StockRole.EditAnnouncements },
  { key: 'email-marketing', label: 'Email marketing', role: StockRole.EditMailchimp },
  { key: 'comments', label: 'Comments', role: StockRole.ReplyToComment },
] as const;

export type ClientStockTab = (typeof CLIENT_STOCK_TABS)[number];
export type ClientStockTabKey = ClientStockTab['key'];

/** Other names a `?tab=` link may use for a tab (e.g. the email-marketing service's). */
const ALIASES: Record<string, ClientStockTabKey> = {
  mailchimp: 'email-marketing',
  emailmarketing: 'email-marketing',
};

export function allowedTabs(roles: readonly string[]): ClientStockTab[] {
  return CLIENT_STOCK_TABS.filter((tab) => roles.includes(tab.role));
}

/** The `?tab=` value as a tab key (case and spacing ignored), or undefined. */
export function tabKeyOf(param: string | null | undefined): ClientStockTabKey | undefined {
  const wanted = (param ?? '').trim().toLowerCase();
  if (!wanted) return undefined;
  const tab = CLIENT_STOCK_TABS.find(
    (t) =>
      t.key === wanted ||
      t.label.toLowerCase() === wanted ||
      t.label.toLowerCase().replace(/\s+/g, '') === wanted,
  );
  return tab?.key ?? ALIASES[wanted.replace(/[\s_-]+/g, '')];
}

/**
 * The tab to show: the one the route asks for if allowed, else Config, else the first allowed tab;
 * undefined when the user holds none of the four roles.
 */
export function activeTabFor(
  roles: readonly string[],
  param: string | null | undefined,
): ClientStockTabKey | undefined {
  const allowed = allowedTabs(roles).map((t) => t.key);
  const wanted = tabKeyOf(param);
  if (wanted && allowed.includes(wanted)) return wanted;
  if (allowed.includes('config')) return 'config';
  return allowed[0];
}
