import { sealKeyVariable, ServiceConfig } from '@irp/platform';
import { GLOBAL_ROLES } from '@irp/proto';
import { z } from 'zod';

/** The users service's own variables; the platform adds KAFKA_BROKERS, DATABASE_URL, HEALTH_PORT, ROLES, … */
export const usersConfig = z.object({
  SESSION_TTL_SECONDS: z.coerce.number().int().min(60).default(3600),
  REFRESH_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(300)
    .default(30 * 24 * 3600),
  /** A session's absolute lifetime from sign-in: refreshes cannot extend it (issue 18). */
  SESSION_MAX_AGE_SECONDS: z.coerce
    .number()
    .int()
    .min(300)
    .default(30 * 24 * 3600),
  /**
   * Sessions of a user holding any staff role (Admin, RunReports, EditUsers, InvoiceTotal; issue 34): they end
   * after this long without a request, and this long after sign-in whatever the refreshes (clients keep
   * SESSION_MAX_AGE_SECONDS and no idle end, unless CLIENT_SESSION_IDLE_SECONDS is set).
   */
  STAFF_SESSION_IDLE_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .default(30 * 60),
  STAFF_SESSION_MAX_AGE_SECONDS: z.coerce
    .number()
    .int()
    .min(300)
    .default(12 * 3600),
  /** 0: a client's session never ends for idleness (only at its absolute end). */
  CLIENT_SESSION_IDLE_SECONDS: z.coerce.number().int().min(0).default(0),
  /**
   * The private half of the key pair passwords are sealed with on the bus (X25519, 43 base64url characters):
   * only this service holds it; the gateway holds the public half (USERS_SEAL_PUBLIC_KEY). Required in
   * production; the development pair is used elsewhere.
   */
  SEAL_PRIVATE_KEY: sealKeyVariable('SEAL_PRIVATE_KEY'),
  /**
   * Second factors (issue 34). The staff roles that must have a passkey or an authenticator app: a user
   * holding one and neither can only set one up after signing in. Comma-separated role names, or `none`;
   * unset: Admin and EditUsers in production, none elsewhere.
   */
  MFA_REQUIRED_ROLES: z
    .string()
    .optional()
    .refine(
      (v) =>
        v === undefined ||
        v.trim() === 'none' ||
        v.split(',').every((r) => (GLOBAL_ROLES as readonly string[]).includes(r.trim())),
      `MFA_REQUIRED_ROLES must be role names (${GLOBAL_ROLES.join(', ')}) separated by commas, or none`,
    ),
  /**
   * The WebAuthn relying party: the host name passkeys are bound to (the portal's, without scheme or port;
   * never an IP address) and the origins a ceremony may come from (comma-separated, scheme and port
   * included).
   */
  WEBAUTHN_RP_ID: z.string().min(1).default('localhost'),
  WEBAUTHN_ORIGINS: z
    .string()
    .default('http://localhost:3000')
    .refine(
      (v) => v.split(',').every((o) => /^https?:\/\/[^/]+$/.test(o.trim())),
      'WEBAUTHN_ORIGINS must be origins (scheme://host[:port]) separated by commas',
    ),
  WEBAUTHN_RP_NAME: z.string().min(1).default('IR Portal'),
  /** How long the step between a right password and its second factor may take. */
  SECOND_FACTOR_TICKET_SECONDS: z.coerce.number().int().min(30).max(3600).default(300),
});
export type UsersConfig = ServiceConfig<typeof usersConfig.shape>;

export const USERS_CONFIG = Symbol('USERS_CONFIG');

/** The roles that need a second factor: MFA_REQUIRED_ROLES, or Admin and EditUsers in production. */
export function rolesNeedingSecondFactor(
  config: Pick<UsersConfig, 'MFA_REQUIRED_ROLES' | 'NODE_ENV'>,
): string[] {
  const value = config.MFA_REQUIRED_ROLES?.trim();
  if (value === 'none') return [];
  if (value) return value.split(',').map((r) => r.trim());
  return config.NODE_ENV === 'production' ? ['Admin', 'EditUsers'] : [];
}
