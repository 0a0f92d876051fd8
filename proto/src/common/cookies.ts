// Kept apart from the zod schemas of rest.ts: the web app imports these, and a module it imports from is
// bundled whole, schemas (and zod) included.

/** Cookie and header names of the session and CSRF protection. */
export const SESSION_COOKIE = 'irp_session';
export const REFRESH_COOKIE = 'irp_refresh';
export const CSRF_COOKIE = 'XSRF-TOKEN';
export const CSRF_HEADER = 'x-xsrf-token';
