import { z } from 'zod';

/** A stock id is the stocks service's UUID. */
export const StockId = z.string().uuid();

export const StockRolesSchema = z.record(StockId, z.array(z.string().min(1)));

/** The signed-in user as services exchange it (the gateway passes it along as a change's actor). */
export const SessionUserSchema = z.object({
  id: z.string().uuid(),
  username: z.string(),
  roles: z.array(z.string()),
  stockRoles: StockRolesSchema,
  /**
   * Set (true) while the user's password is one someone else set (issue 34): the session may only choose a
   * new password (and sign out) until then. Never set on an actor or an event.
   */
  mustChangePassword: z.boolean().optional(),
  /**
   * Set (true) while the user's roles need a second factor (MFA_REQUIRED_ROLES) and they have none: the
   * session may only set one up (and sign out) until then. Never set on an actor or an event.
   */
  mustAddSecondFactor: z.boolean().optional(),
});
export type SessionUser = z.infer<typeof SessionUserSchema>;
