/**
 * Role names of spec section 6 and the one set of role predicates. Global roles live in a user's `roles`;
 * per-stock roles are the lists in `stockRoles` (stock id -> roles). Admin implies every permission,
 * global and per stock.
 */
export const GlobalRole = {
  Admin: 'Admin',
  RunReports: 'RunReports',
  InvoiceTotal: 'InvoiceTotal',
  EditUsers: 'EditUsers',
} as const;
export type GlobalRole = (typeof GlobalRole)[keyof typeof GlobalRole];
export const GLOBAL_ROLES: readonly GlobalRole[] = Object.values(GlobalRole);

/** The seven per-stock roles offered in the user editor. */
export const StockRole = {
  ViewConfig: 'ViewConfig',
  EditAnnouncements: 'EditAnnouncements',
  EditMailchimp: 'EditMailchimp',
  SendMailchimp: 'SendMailchimp',
  TestSendAnnouncement: 'TestSendAnnouncement',
  Invoicing: 'Invoicing',
  ReplyToComment: 'ReplyToComment',
} as const;
export type StockRole = (typeof StockRole)[keyof typeof StockRole];
export const STOCK_ROLES: readonly StockRole[] = Object.values(StockRole);

/**
 * A signed-in user in either form on the wire: the services' SessionUser (`roles` a list of names) or
 * the web app's SessionUserDto (`roles` keyed by name, true when held). The predicates read both, so
 * the gateway, the services and the web app apply the same rules.
 */
export interface RoleHolder {
  roles: readonly string[] | Readonly<Record<string, boolean>>;
  stockRoles?: Readonly<Record<string, readonly string[]>>;
}

type MaybeUser = RoleHolder | null | undefined;

/** The global roles the user holds, as a list (a DTO's roles flagged false are not held). */
export function grantedRoles(user: MaybeUser): string[] {
  if (!user) return [];
  const { roles } = user;
  if (isRoleList(roles)) return [...roles];
  return Object.entries(roles)
    .filter(([, held]) => held === true)
    .map(([role]) => role);
}

function isRoleList(roles: RoleHolder['roles']): roles is readonly string[] {
  return Array.isArray(roles);
}

/** Holds this global role itself (no Admin implication: e.g. whether to show the Reports tab). */
export const hasRole = (user: MaybeUser, role: string): boolean => grantedRoles(user).includes(role);

export const isAdmin = (user: MaybeUser): boolean => hasRole(user, GlobalRole.Admin);

/** Holds any of these global roles; Admin passes all. */
export const hasGlobalRole = (user: MaybeUser, roles: readonly string[]): boolean =>
  isAdmin(user) || roles.some((role) => hasRole(user, role));

/** Holds the role (or any of the roles) on this stock; Admin passes all. */
export function hasStockRole(user: MaybeUser, stockId: string, role: string | readonly string[]): boolean {
  if (!user) return false;
  if (isAdmin(user)) return true;
  const held = user.stockRoles?.[stockId] ?? [];
  const wanted: readonly string[] = typeof role === 'string' ? [role] : role;
  return wanted.some((r) => held.includes(r));
}

/** The roles the user holds on a stock; an admin holds every one of them (spec section 6). */
export const stockRolesOf = (user: MaybeUser, stockId: string): string[] =>
  isAdmin(user) ? [...STOCK_ROLES] : [...(user?.stockRoles?.[stockId] ?? [])];

/** Staff are admins and report-runners; everyone else signed in sees the client dashboard. */
export const isStaff = (user: MaybeUser): boolean => hasGlobalRole(user, [GlobalRole.RunReports]);

/** The Users screen: EditUsers holders, and admins. */
export const canEditUsers = (user: MaybeUser): boolean => hasGlobalRole(user, [GlobalRole.EditUsers]);
