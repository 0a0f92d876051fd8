import type { SessionUserDto } from '@irp/proto';
import { staffStockTabs, type StaffStockTab } from '@/lib/tabs/stockPageTabs';

type SessionUser = SessionUserDto | null | undefined;

/** The tabs the user may see, in order (features register them: lib/tabs/stockPageTabs.ts). */
export function visibleTabsFor(user: SessionUser): StaffStockTab[] {
  return staffStockTabs.allowed({ user });
}

/** The keys (URL segments) of the tabs the user may see, in order. */
export function visibleStockTabs(user: SessionUser): string[] {
  return visibleTabsFor(user).map((tab) => tab.key);
}

/** Config when the user may see it (admins), otherwise Reports; undefined when the user may see no tab. */
export function defaultStockTab(user: SessionUser): string | undefined {
  const visible = visibleStockTabs(user);
  if (visible.includes('config')) return 'config';
  return visible.includes('reports') ? 'reports' : visible[0];
}

/** The tab a URL segment names (any case) if the user may see it, else the default tab. */
export function resolveStockTab(user: SessionUser, segment: string | undefined): string | undefined {
  const wanted = segment?.toLowerCase();
  return visibleStockTabs(user).find((key) => key === wanted) ?? defaultStockTab(user);
}

/** Whether the page's Save button shows on the tab (spec section 2: not on Notes and Reports). */
export const tabHasSaveButton = (key: string): boolean =>
  staffStockTabs.all().find((tab) => tab.key === key)?.saves ?? false;
