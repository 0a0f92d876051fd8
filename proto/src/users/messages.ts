import { z } from 'zod';
import { SessionUserSchema } from '../common/session';

/** Request/reply messages of the users service (sign-in and sessions). */

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
