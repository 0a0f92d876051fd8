import { sealKeyVariable, ServiceConfig } from '@irp/platform';
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
});
export type UsersConfig = ServiceConfig<typeof usersConfig.shape>;

export const USERS_CONFIG = Symbol('USERS_CONFIG');
