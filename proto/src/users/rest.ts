import { z } from 'zod';
import { StockRolesSchema } from '../common/session';

/** REST shapes of the auth routes (spec section 7, Auth). */

/** GET /api/admin/refreshtoken and GET /api/login: the session user. */
export const SessionUserDtoSchema = z.object({
  username: z.string(),
  user: z.object({ id: z.string(), username: z.string() }),
  /** Keyed by role name (spec section 3: "roles (object keyed by role name)"). */
  roles: z.record(z.string(), z.boolean()),
  /** Stock id -> roles. */
  stockRoles: StockRolesSchema,
});
export type SessionUserDto = z.infer<typeof SessionUserDtoSchema>;

/** What the web app's login form sends (as Basic auth on GET /api/login). */
export interface LoginCredentials {
  username: string;
  password: string;
}
