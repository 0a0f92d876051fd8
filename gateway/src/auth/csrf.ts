import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The CSRF token is an HMAC of the session token (a signed double-submit cookie): the web app reads it
 * from the XSRF-TOKEN cookie and echoes it in X-XSRF-TOKEN; a forged cross-site request can do neither.
 */
export function csrfTokenFor(secret: string, sessionToken: string): string {
  return createHmac('sha256', secret).update(`csrf:${sessionToken}`).digest('base64url');
}

export function csrfTokenValid(secret: string, sessionToken: string, presented: string | undefined): boolean {
  if (!presented) return false;
  const expected = Buffer.from(csrfTokenFor(secret, sessionToken));
  const given = Buffer.from(presented);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

export const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
