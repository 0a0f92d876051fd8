/** Rules of sign-in and sessions that need no I/O. */

export const INVALID_LOGIN = 'Invalid username/password';
export const SIGNED_OUT = 'Not signed in';
export const SESSION_OVER = 'Your session has reached its maximum length; please sign in again';
export const REFRESH_REUSED = 'Refresh token was already used; please sign in again';
export const SESSION_IDLE = 'Your session ended after a time without activity; please sign in again';

/** How long sessions of a user last: staff (any global role) shorter, with an idle end (issue 34). */
export interface SessionLimits {
  STAFF_SESSION_IDLE_SECONDS: number;
  STAFF_SESSION_MAX_AGE_SECONDS: number;
  CLIENT_SESSION_IDLE_SECONDS: number;
  SESSION_MAX_AGE_SECONDS: number;
}

/** Staff sign in with what they hold today: a role granted mid-session shortens the session at once. */
const holdsStaffRole = (roles: readonly string[]) => roles.length > 0;

/** A new session's absolute end (from sign-in). */
export const absoluteEndOf = (roles: readonly string[], limits: SessionLimits, now: number): Date =>
  new Date(
    now +
      (holdsStaffRole(roles) ? limits.STAFF_SESSION_MAX_AGE_SECONDS : limits.SESSION_MAX_AGE_SECONDS) * 1000,
  );

/**
 * Why a live session is over for a user with these roles, or null: past its absolute end (the staff limit
 * also applies to a session started before the user became staff), or idle for longer than the user's
 * idle limit (last seen is written at most once a minute: see needsTouch).
 */
export function sessionOver(
  session: { createdAt: Date; lastSeenAt: Date; absoluteExpiresAt: Date },
  roles: readonly string[],
  limits: SessionLimits,
  now: number,
): string | null {
  const staff = holdsStaffRole(roles);
  const end = Math.min(
    session.absoluteExpiresAt.getTime(),
    staff ? session.createdAt.getTime() + limits.STAFF_SESSION_MAX_AGE_SECONDS * 1000 : Infinity,
  );
  if (end <= now) return SESSION_OVER;
  const idle = staff ? limits.STAFF_SESSION_IDLE_SECONDS : limits.CLIENT_SESSION_IDLE_SECONDS;
  if (idle > 0 && now - session.lastSeenAt.getTime() > idle * 1000) return SESSION_IDLE;
  return null;
}

/** When a token issued at `now` ends: its time to live, never past the session's absolute end (ISO). */
export const tokenExpiry = (now: number, ttlSeconds: number, absoluteEnd: Date): string =>
  new Date(Math.min(now + ttlSeconds * 1000, absoluteEnd.getTime())).toISOString();

/** A session's last-seen time is written again at most once a minute: a lookup is mostly a read. */
export const needsTouch = (lastSeenAt: Date, now: number): boolean => now - lastSeenAt.getTime() > 60_000;
