/**
 * Role names of spec section 6. Global roles live in a user's `roles`; per-stock roles are the lists in
 * `stockRoles` (stock id -> roles). Admin implies every permission, global and per stock.
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

/** Staff are admins and report-runners; everyone else signed in sees the client dashboard. */
export function isStaff(roles: readonly string[]): boolean {
  return roles.includes(GlobalRole.Admin) || roles.includes(GlobalRole.RunReports);
}
