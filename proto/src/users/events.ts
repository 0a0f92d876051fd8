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
