import {
  GLOBAL_ROLES,
  NEW_USER_ID,
  STOCK_ROLES,
  type CompanyDto,
  type PermissionRowDto,
  type StockRole,
  type UserAuditEntryDto,
  type UserDetailDto,
} from '@irp/proto';

/** Spec section 5 (User edit): the two alerts of 'Add Row'. */
export const SELECT_A_COMPANY = 'Please select a Company';
export const ROW_EXISTS = 'Row with this Company already exists';
export const PASSWORD_PLACEHOLDER = 'Leave blank unless changing';

/**
 * The column heading of each per-stock role. The spec leaves the seven roles' literal names unshown; these
 * say in words what each one gates (spec section 6).
 */
export const STOCK_ROLE_LABELS: Record<StockRole, string> = {
  ViewConfig: 'Config',
  EditAnnouncements: 'Announcements',
  EditMailchimp: 'Email Marketing',
  SendMailchimp: 'Send Email',
  TestSendAnnouncement: 'Send Test Email',
  Invoicing: 'Invoicing',
  ReplyToComment: 'Comments',
};

/** The staff roles (spec section 6), set only by an Admin. */
export const STAFF_ROLE_LABELS: Record<(typeof GLOBAL_ROLES)[number], string> = {
  Admin: 'Admin',
  RunReports: 'Run Reports',
  EditUsers: 'Edit Users',
  InvoiceTotal: 'Invoice Total',
};

/** A row of the editor's table: the stock as the users service names it now, and the roles ticked. */
export interface PermissionRow {
  stockId: string;
  combinedTicker: string;
  companyName: string;
  archived: boolean;
  roles: StockRole[];
}

export interface UserForm {
  username: string;
  password: string;
  /** The staff roles held (sent only by an Admin). */
  staffRoles: string[];
  rows: PermissionRow[];
}

const isStockRole = (role: string): role is StockRole => (STOCK_ROLES as readonly string[]).includes(role);

/** The form a loaded user starts from (the password always blank: blank leaves it unchanged). */
export function formOf(user: UserDetailDto): UserForm {
  return {
    username: user.username,
    password: '',
    staffRoles: [...user.roles],
    rows: user.permissions.map((row) => ({
      stockId: row.stockId ?? row.combinedTicker,
      combinedTicker: row.combinedTicker,
      companyName: row.companyName ?? '',
      archived: row.archived ?? false,
      roles: STOCK_ROLES.filter((role) => row.roles.includes(role)).filter(isStockRole),
    })),
  };
}

export type AddRowResult = { rows: PermissionRow[] } | { alert: string };

/**
 * 'Add Row' (spec section 5): nothing chosen alerts 'Please select a Company'; a company already in the
 * table alerts 'Row with this Company already exists'. A new row holds no role yet.
 */
export function addRow(rows: readonly PermissionRow[], company: CompanyDto | null | undefined): AddRowResult {
  if (!company) return { alert: SELECT_A_COMPANY };
  if (rows.some((row) => row.stockId === company.stockId)) return { alert: ROW_EXISTS };
  return {
    rows: [
      ...rows,
      {
        stockId: company.stockId,
        combinedTicker: company.combinedTicker,
        companyName: company.companyName,
        archived: company.archived,
        roles: [],
      },
    ],
  };
}

/** Ticks or unticks one role of one row; the roles stay in proto's order. */
export function toggleRole(
  rows: readonly PermissionRow[],
  stockId: string,
  role: StockRole,
  held: boolean,
): PermissionRow[] {
  return rows.map((row) => {
    if (row.stockId !== stockId) return row;
    const roles = new Set<StockRole>(row.roles);
    if (held) roles.add(role);
    else roles.delete(role);
    return { ...row, roles: STOCK_ROLES.filter((r) => roles.has(r)) };
  });
}

export const deleteRow = (rows: readonly PermissionRow[], stockId: string): PermissionRow[] =>
  rows.filter((row) => row.stockId !== stockId);

export interface SaveUserBody {
  username: string;
  password: string;
  permissions: PermissionRowDto[];
  roles?: string[];
}

/**
 * What Save sends (POST /api/users/{id}): rows by stock id, the password as typed (blank keeps it), and the
 * staff roles only when the signed-in user is an Admin (left out, the server keeps them).
 */
export function saveBodyOf(form: UserForm, { sendStaffRoles }: { sendStaffRoles: boolean }): SaveUserBody {
  return {
    username: form.username.trim(),
    password: form.password,
    permissions: form.rows.map((row) => ({
      stockId: row.stockId,
      combinedTicker: row.combinedTicker,
      roles: [...row.roles],
    })),
    ...(sendStaffRoles ? { roles: [...form.staffRoles] } : {}),
  };
}

export const isNewUser = (id: string | undefined): boolean => id === NEW_USER_ID;

/** Names a stock id of an audit row: its ticker when the editor knows it (the user's rows), else the id. */
export type TickerOf = (stockId: string) => string;

/** Roles added (+) then removed (−), each in `order` (proto's), unknown names last. */
function roleChanges(
  before: readonly string[],
  after: readonly string[],
  label: (r: string) => string,
  order: readonly string[],
): string[] {
  const rank = (r: string) => (order.includes(r) ? order.indexOf(r) : order.length);
  const sorted = (roles: string[]) => roles.sort((a, b) => rank(a) - rank(b));
  return [
    ...sorted(after.filter((r) => !before.includes(r))).map((r) => `+${label(r)}`),
    ...sorted(before.filter((r) => !after.includes(r))).map((r) => `−${label(r)}`),
  ];
}

const stockRoleLabel = (role: string) => STOCK_ROLE_LABELS[role as StockRole] ?? role;
const staffRoleLabel = (role: string) => STAFF_ROLE_LABELS[role as keyof typeof STAFF_ROLE_LABELS] ?? role;

/**
 * What one audit row changed, a line each: created, the username, the staff roles and each stock's roles
 * (added +, removed −), and whether the password changed (never the password itself).
 */
export function auditChanges(entry: UserAuditEntryDto, tickerOf: TickerOf): string[] {
  const lines: string[] = [];
  if (entry.usernameBefore === null) lines.push(`Created as ${entry.usernameAfter}`);
  else if (entry.usernameBefore !== entry.usernameAfter)
    lines.push(`Username ${entry.usernameBefore} → ${entry.usernameAfter}`);
  const staff = roleChanges(entry.rolesBefore, entry.rolesAfter, staffRoleLabel, GLOBAL_ROLES);
  if (staff.length) lines.push(`Staff roles: ${staff.join(', ')}`);
  const stockIds = [
    ...new Set([...Object.keys(entry.stockRolesBefore), ...Object.keys(entry.stockRolesAfter)]),
  ];
  for (const stockId of stockIds.sort((a, b) => tickerOf(a).localeCompare(tickerOf(b)))) {
    const changes = roleChanges(
      entry.stockRolesBefore[stockId] ?? [],
      entry.stockRolesAfter[stockId] ?? [],
      stockRoleLabel,
      STOCK_ROLES,
    );
    if (changes.length) lines.push(`${tickerOf(stockId)}: ${changes.join(', ')}`);
  }
  if (entry.passwordChanged) lines.push(entry.usernameBefore === null ? 'Password set' : 'Password changed');
  return lines;
}
