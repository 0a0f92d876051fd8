import { GLOBAL_ROLES, SessionUser, STOCK_ROLES } from '@irp/proto';
import { AppError } from '@irp/platform/errors';
import type { UserEntity } from './user.entity';

/** Rules of a user's shape that need no database: its session form, role comparison and role names. */

type Roles = Pick<SessionUser, 'roles' | 'stockRoles'>;

export function toSessionUser(user: UserEntity): SessionUser {
  const stockRoles: Record<string, string[]> = {};
  for (const s of user.stockRoles ?? []) if (s.roles.length) stockRoles[s.stockId] = [...s.roles].sort();
  return { id: user.id, username: user.username, roles: [...user.roles].sort(), stockRoles };
}

/**
 * The user as a session sees it: their roles, whether they must choose a new password first, and whether
 * their roles need a second factor they have not set up (`secondFactorRoles`: MFA_REQUIRED_ROLES).
 */
export function sessionUserOf(user: UserEntity, secondFactorRoles: readonly string[] = []): SessionUser {
  const mustAddSecondFactor = !user.hasSecondFactor && user.roles.some((r) => secondFactorRoles.includes(r));
  return {
    ...toSessionUser(user),
    ...(user.mustChangePassword ? { mustChangePassword: true } : {}),
    ...(mustAddSecondFactor ? { mustAddSecondFactor: true } : {}),
  };
}

/** Whether two users hold the same global and per-stock roles (lists compared as sets). */
export function sameRoles(a: Roles, b: Roles) {
  const key = (u: Roles) =>
    JSON.stringify([
      [...u.roles].sort(),
      Object.keys(u.stockRoles)
        .filter((id) => u.stockRoles[id].length)
        .sort()
        .map((id) => [id, [...u.stockRoles[id]].sort()]),
    ]);
  return key(a) === key(b);
}

/** Only the role names of spec section 6 are stored. */
export function checkRoles(input: Roles): void {
  const unknownGlobal = input.roles.filter((r) => !(GLOBAL_ROLES as readonly string[]).includes(r));
  if (unknownGlobal.length) throw new AppError('BAD_REQUEST', `Unknown role: ${unknownGlobal.join(', ')}`);
  for (const roles of Object.values(input.stockRoles)) {
    const unknown = roles.filter((r) => !(STOCK_ROLES as readonly string[]).includes(r));
    if (unknown.length) throw new AppError('BAD_REQUEST', `Unknown stock role: ${unknown.join(', ')}`);
  }
}
