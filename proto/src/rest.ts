/**
 * REST DTOs of spec section 7 that the web app shares with the gateway.
 */

/** GET /api/admin/refreshtoken and GET /api/login: the session user. */
export interface SessionUserDto {
  username: string;
  user: { id: string; username: string };
  /** Keyed by role name (spec section 3: "roles (object keyed by role name)"). */
  roles: Record<string, boolean>;
  /** Stock id -> roles. */
  stockRoles: Record<string, string[]>;
}

/** Error body of every non-2xx answer from the gateway. */
export interface ApiErrorDto {
  statusCode: number;
  error: string;
  message: string;
  errorMessage: string;
}

/** GET /health of the gateway. */
export interface GatewayHealthDto {
  status: 'ok' | 'degraded';
  services: Record<string, { status: 'up' | 'down'; latencyMs?: number; error?: string }>;
}

/** Cookie and header names of the session and CSRF protection. */
export const SESSION_COOKIE = 'irp_session';
export const REFRESH_COOKIE = 'irp_refresh';
export const CSRF_COOKIE = 'XSRF-TOKEN';
export const CSRF_HEADER = 'x-xsrf-token';
