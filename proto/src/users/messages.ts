import { z } from 'zod';
import { SessionUserSchema } from '../common/session';
import { ActorSchema } from '../stocks/stock';
import { CompanySchema, PermissionRowSchema, UserListItemSchema } from './rest';

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

/** User administration (the Users screens); every request carries the signed actor. */
export const ListUsersRequestSchema = z.object({ actor: ActorSchema });
export const ListUsersReplySchema = z.object({ users: z.array(UserListItemSchema) });
export const GetUserRequestSchema = z.object({ actor: ActorSchema, id: z.string().uuid() });
export const SaveUserRequestSchema = z.object({
  actor: ActorSchema,
  /** Null creates. */
  id: z.string().uuid().nullable(),
  username: z.string().max(200),
  permissions: z.array(PermissionRowSchema).max(1000),
  password: z.string().max(1000).optional(),
  roles: z.array(z.string().min(1).max(60)).max(20).optional(),
});
export const SaveUserReplySchema = z.object({ id: z.string().uuid() });
export const SearchCompaniesRequestSchema = z.object({ actor: ActorSchema, search: z.string().max(200) });
export const SearchCompaniesReplySchema = z.object({ companies: z.array(CompanySchema) });
export const ChangeOwnPasswordRequestSchema = z.object({
  actor: ActorSchema,
  /** The session making the change: it stays signed in, the user's other sessions end. */
  sessionToken: z.string().min(1).max(200),
  currentPassword: z.string().max(1000),
  newPassword: z.string().max(1000),
});
export const ChangeOwnPasswordReplySchema = z.object({ changed: z.literal(true) });
