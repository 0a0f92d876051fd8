import { z } from 'zod';
import { StockRolesSchema } from '../common/session';

/** Event-carried state of a user, keyed by user id. Never carries the password hash. */
export const UserUpsertedEventSchema = z.object({
  id: z.string().uuid(),
  username: z.string(),
  roles: z.array(z.string()),
  stockRoles: StockRolesSchema,
  updatedAt: z.string().datetime(),
});
export type UserUpsertedEvent = z.infer<typeof UserUpsertedEventSchema>;

/**
 * `user.access-changed` (issue 34): a user's password or roles changed. Published when the username is an
 * email address (the portal keeps no other address of a user), for the email-marketing service to mail the
 * user, so a password set or roles granted by someone else never go unnoticed. Never carries a password.
 */
export const UserAccessChangedEventSchema = z.object({
  userId: z.string().uuid(),
  /** The user's username: an email address. */
  to: z.string().max(400),
  passwordChanged: z.boolean(),
  /** Set by someone else: one-time, to be replaced at the next sign-in. */
  oneTimePassword: z.boolean(),
  rolesChanged: z.boolean(),
  /** Who made the change (the user themselves, an administrator's username, or 'seed'). */
  by: z.string(),
  byTheUser: z.boolean(),
  at: z.string().datetime(),
});
export type UserAccessChangedEvent = z.infer<typeof UserAccessChangedEventSchema>;
