import { z } from 'zod';

/** A stock id is the stocks service's UUID. */
export const StockId = z.string().uuid();

export const StockRolesSchema = z.record(StockId, z.array(z.string().min(1)));

/** The signed-in user as services exchange it. */
export const SessionUserSchema = z.object({
  id: z.string().uuid(),
  username: z.string(),
  roles: z.array(z.string()),
  stockRoles: StockRolesSchema,
});
export type SessionUser = z.infer<typeof SessionUserSchema>;

const TokenSchema = z.object({ token: z.string().min(32), expiresAt: z.string().datetime() });

export const AuthenticateRequestSchema = z.object({
  username: z.string().min(1).max(200),
  password: z.string().min(1).max(1000),
  userAgent: z.string().max(500).optional(),
  ip: z.string().max(100).optional(),
});
export const SessionGrantSchema = z.object({
  user: SessionUserSchema,
  session: TokenSchema,
  refresh: TokenSchema,
});
export type SessionGrant = z.infer<typeof SessionGrantSchema>;

export const SessionRequestSchema = z.object({ sessionToken: z.string().min(1).max(200) });
export const RefreshRequestSchema = z.object({
  refreshToken: z.string().min(1).max(200),
  userAgent: z.string().max(500).optional(),
  ip: z.string().max(100).optional(),
});
export const LogoutRequestSchema = z.object({
  sessionToken: z.string().max(200).optional(),
  refreshToken: z.string().max(200).optional(),
});
export const LogoutReplySchema = z.object({ loggedOut: z.boolean() });

export const PingRequestSchema = z.object({}).passthrough();
export const PingReplySchema = z.object({ service: z.string(), instance: z.string(), at: z.string() });

/** Event-carried state of a user, keyed by user id. Never carries the password hash. */
export const UserUpsertedEventSchema = z.object({
  id: z.string().uuid(),
  username: z.string(),
  roles: z.array(z.string()),
  stockRoles: StockRolesSchema,
  updatedAt: z.string().datetime(),
});
export type UserUpsertedEvent = z.infer<typeof UserUpsertedEventSchema>;
