import { GlobalRole, isStaff, type SessionUserDto, type StockRole } from '@irp/proto';

type RolesHolder = Pick<SessionUserDto, 'roles'>;

/** The names of the global roles the user holds (`roles` is keyed by role name, value true when held). */
export function grantedRoles(user: RolesHolder | null | undefined): string[] {
  if (!user) return [];
  return Object.entries(user.roles)
    .filter(([, held]) => held)
    .map(([role]) => role);
}

export function hasRole(user: RolesHolder | null | undefined, role: GlobalRole): boolean {
  return user?.roles[role] === true;
}

export function isAdmin(user: RolesHolder | null | undefined): boolean {
  return hasRole(user, GlobalRole.Admin);
}

/** Staff (admins and report-runners) get the staff dashboard at /. */
export function isStaffUser(user: RolesHolder | null | undefined): boolean {
  return isStaff(grantedRoles(user));
}

/** The Users screen and menu item: EditUsers holders, and admins (Admin implies every permission). */
export function canEditUsers(user: RolesHolder | null | undefined): boolean {
  return isAdmin(user) || hasRole(user, GlobalRole.EditUsers);
}

/** A per-stock permission: from stockRoles by stock id; Admin always passes. */
export function hasStockRole(
  user: Pick<SessionUserDto, 'roles' | 'stockRoles'> | null | undefined,
  stockId: string,
  role: StockRole,
): boolean {
  if (!user) return false;
  return isAdmin(user) || (user.stockRoles[stockId]?.includes(role) ?? false);
}
