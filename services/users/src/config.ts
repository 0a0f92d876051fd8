import { ServiceConfig } from '@irp/platform';
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
});
export type UsersConfig = ServiceConfig<typeof usersConfig.shape>;

export const USERS_CONFIG = Symbol('USERS_CONFIG');
