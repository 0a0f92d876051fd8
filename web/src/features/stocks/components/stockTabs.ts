import { GlobalRole, type SessionUserDto } from '@irp/proto';
import { hasRole, isAdmin } from '@/lib/session/roles';

/** The stock page's tabs (spec section 2) in order, with the URL segment each one writes. */
export const STOCK_TABS = [
  { slug: 'config', label: 'Config' },
  { slug: 'market', label: 'Market' },
  { slug: 'email-marketing', label: 'Email marketing' },
  { slug: 'announcements', label: 'Announcements' },
  { slug: 'invoices', label: 'Invoices' },
  { slug: 'notes', label: 'Notes' },
  { slug: 'reports', label: 'Reports' },
] as const;

export type StockTab = (typeof STOCK_TABS)[number]['slug'];

type RolesHolder = Pick<SessionUserDto, 'roles'> | null | undefined;

/** Admins see every tab (Invoices needs InvoiceTotal); report-runners only Reports; others none. */
export function visibleStockTabs(user: RolesHolder): StockTab[] {
  if (isAdmin(user)) {
    return STOCK_TABS.map((t) => t.slug).filter(
      (slug) => slug !== 'invoices' || hasRole(user, GlobalRole.InvoiceTotal),
    );
  }
  return hasRole(user, GlobalRole.RunReports) ? ['reports'] : [];
}

/** Config for admins, otherwise Reports; undefined when the user may see no tab. */
export function defaultStockTab(user: RolesHolder): StockTab | undefined {
  const visible = visibleStockTabs(user);
  if (visible.includes('config')) return 'config';
  return visible.includes('reports') ? 'reports' : visible[0];
}

/** The tab a URL segment names (any case) if the user may see it, else the default tab. */
export function resolveStockTab(user: RolesHolder, segment: string | undefined): StockTab | undefined {
  const wanted = segment?.toLowerCase();
  return visibleStockTabs(user).find((slug) => slug === wanted) ?? defaultStockTab(user);
}

export function stockTabLabel(tab: StockTab): string {
  return STOCK_TABS.find((t) => t.slug === tab)?.label ?? tab;
}

/** Notes and Reports save as they go (Add Note, Generate); the other tabs use the page's Save button. */
export const tabHasSaveButton = (tab: StockTab): boolean => tab !== 'notes' && tab !== 'reports';
