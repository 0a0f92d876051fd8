import { Actor, ErrorCode, GLOBAL_ROLES, isAdmin } from '@irp/proto';
import { AppError } from '@irp/platform/errors';

/** Rules of the Users editor that need no database (issue 21). */

/** The staff roles are the global roles: Admin, RunReports, EditUsers, InvoiceTotal. */
const holdsStaffRole = (roles: readonly string[]) =>
  roles.some((r) => (GLOBAL_ROLES as readonly string[]).includes(r));

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');

/**
 * Only an Admin sets staff roles, and only an Admin changes a user who holds one: an EditUsers holder who
 * could set a staff user's password could sign in as that user.
 */
export function checkStaffChange(
  actor: Actor,
  rolesBefore: readonly string[],
  rolesAfter: readonly string[],
) {
  if (isAdmin(actor)) return;
  if (holdsStaffRole(rolesBefore))
    throw new AppError(ErrorCode.Forbidden, 'Only an Admin can change a user who holds a staff role');
  if (!sameSet(rolesBefore, rolesAfter))
    throw new AppError(
      ErrorCode.Forbidden,
      `Only an Admin can set the staff roles (${GLOBAL_ROLES.join(', ')})`,
    );
}

/** A stock named twice in the rows: the editor's own message (spec section 5). */
export const DUPLICATE_ROW = 'Row with this Company already exists';

/** A blank password (spaces only too) leaves the current one unchanged (spec section 5). */
export const givenPassword = (password: string | null | undefined): string | undefined =>
  password && password.trim() ? password : undefined;

/** An id no user has (the editor's GET and save). */
export const USER_NOT_FOUND = 'User not found';
