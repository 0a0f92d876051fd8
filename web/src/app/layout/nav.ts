import type { SessionUserDto } from '@irp/proto';
import { canEditUsers, isAdmin } from '@/lib/session/roles';

/** Pages that never show the top navigation, even when signed in (spec section 2). */
const PAGES_WITHOUT_NAV = [/^\/report(\/|$)/i, /^\/new-order(\/|$)/i, /^\/login\/?$/i];

/** The top navigation shows only when signed in, and never on /report/*, /new-order/* or /login. */
export function shouldShowNav(pathname: string, signedIn: boolean): boolean {
  return signedIn && !PAGES_WITHOUT_NAV.some((pattern) => pattern.test(pathname));
}

export interface NavItem {
  label: string;
  to: string;
}

/** Header menu links by role; Logout is always added after these. */
export function navItemsFor(user: Pick<SessionUserDto, 'roles'>): NavItem[] {
  const items: NavItem[] = [];
  if (isAdmin(user)) {
    items.push(
      { label: 'Add New Stock', to: '/create' },
      { label: 'System Settings', to: '/system-settings' },
      { label: 'Accounting Integration', to: '/accounting-page' },
      { label: 'Orders', to: '/orders' },
    );
  }
  if (canEditUsers(user)) items.push({ label: 'Users', to: '/users' });
  return items;
}
