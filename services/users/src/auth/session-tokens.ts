import { SessionGrant } from '@irp/proto';
import { UsersConfig } from '../config';
import { tokenExpiry } from '../credentials/session-rules';

/**
 * When the gateway's new session and refresh tokens end (sign-in and every refresh), neither outliving the
 * session's absolute end. The tokens themselves are the gateway's: this service sees their hashes only.
 */
export function tokenExpiries(
  ttls: Pick<UsersConfig, 'SESSION_TTL_SECONDS' | 'REFRESH_TTL_SECONDS'>,
  absoluteEnd: Date,
  now = Date.now(),
): Pick<SessionGrant, 'session' | 'refresh'> {
  return {
    session: { expiresAt: tokenExpiry(now, ttls.SESSION_TTL_SECONDS, absoluteEnd) },
    refresh: { expiresAt: tokenExpiry(now, ttls.REFRESH_TTL_SECONDS, absoluteEnd) },
  };
}
