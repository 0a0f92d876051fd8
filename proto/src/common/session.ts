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
});
export type SessionUser = z.infer<typeof SessionUserSchema>;
