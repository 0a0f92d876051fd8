import { SessionGrant } from '@irp/proto';
import { UsersConfig } from '../config';
import { newToken } from '../credentials/secrets';
import { tokenExpiry } from '../credentials/session-rules';

/** New session and refresh tokens (sign-in and every refresh), neither outliving the session's absolute end. */
export function issueTokens(
  ttls: Pick<UsersConfig, 'SESSION_TTL_SECONDS' | 'REFRESH_TTL_SECONDS'>,
  absoluteEnd: Date,
  now = Date.now(),
): Pick<SessionGrant, 'session' | 'refresh'> {
  return {
    session: { token: newToken(), expiresAt: tokenExpiry(now, ttls.SESSION_TTL_SECONDS, absoluteEnd) },
    refresh: { token: newToken(), expiresAt: tokenExpiry(now, ttls.REFRESH_TTL_SECONDS, absoluteEnd) },
  };
}
