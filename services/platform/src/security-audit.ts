import { createLogger } from './logging';

/**
 * Security events (issue 34, ASVS V7): one structured line each under the logger `security-audit`, at info,
 * whatever else a process logs, so a log pipeline can keep, alert on and search them apart from the rest.
 * Never a password, a token or a key: who, what, from where, and why.
 */
export const securityAudit = createLogger('security-audit');

export type SecurityEvent =
  | 'sign-in.succeeded'
  | 'sign-in.failed'
  | 'sign-in.held'
  | 'password.changed'
  | 'password.change-refused'
  | 'password.set-by-other'
  | 'roles.changed'
  | 'sessions.revoked'
  | 'session.ended'
  | 'sign-out'
  | 'second-factor.succeeded'
  | 'second-factor.failed'
  | 'second-factor.added'
  | 'second-factor.removed'
  | 'second-factor.recovery-codes-renewed';

export interface SecurityEventFields {
  /** The user the event is about (a sign-in's username as typed, lower case). */
  username?: string;
  userId?: string;
  /** Who did it, when someone else than the user (an administrator's username). */
  by?: string;
  /** The client address (behind the configured proxies). */
  address?: string;
  /** Why: a refusal's or an ending's reason, in words. */
  reason?: string;
  /** How many (sessions revoked). */
  count?: number;
  /** Seconds a hold lasts. */
  retryAfterSeconds?: number;
  /** The second factor used, added or removed: passkey, totp, recovery (or code when refused). */
  method?: string;
}

export function auditSecurityEvent(event: SecurityEvent, fields: SecurityEventFields): void {
  securityAudit.info({ event, ...fields }, `security: ${event}`);
}
