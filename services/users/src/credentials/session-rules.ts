/** Rules of sign-in and sessions that need no I/O. */

export const INVALID_LOGIN = 'Invalid username/password';
export const SIGNED_OUT = 'Not signed in';
export const SESSION_OVER = 'Your session has reached its maximum length; please sign in again';
export const REFRESH_REUSED = 'Refresh token was already used; please sign in again';

/** When a token issued at `now` ends: its time to live, never past the session's absolute end (ISO). */
export const tokenExpiry = (now: number, ttlSeconds: number, absoluteEnd: Date): string =>
  new Date(Math.min(now + ttlSeconds * 1000, absoluteEnd.getTime())).toISOString();

/** A session's last-seen time is written again at most once a minute: a lookup is mostly a read. */
export const needsTouch = (lastSeenAt: Date, now: number): boolean => now - lastSeenAt.getTime() > 60_000;
