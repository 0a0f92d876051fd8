import { z } from 'zod';
import { SessionUserSchema } from '../common/session';
import { SealedSecretSchema, TokenHashSchema } from '../common/sealed';
import { ActorSchema } from '../stocks/stock';
import { CompanySchema, PermissionRowSchema, UserListItemSchema } from './rest';

/**
 * Request/reply messages of the users service (sign-in and sessions). No secret crosses the bus in clear
 * (issue 34): the gateway makes the session and refresh tokens and sends only their SHA-256 hashes, and a
 * password is sealed for the users service alone (SealedSecretSchema; `SealContext.Password`).
 */

/** The hashes of a new session token and refresh token the gateway made (sign-in and every refresh). */
export const TokenHashesSchema = z.object({ sessionHash: TokenHashSchema, refreshHash: TokenHashSchema });
const ExpirySchema = z.object({ expiresAt: z.string().datetime() });

export const AuthenticateRequestSchema = z.object({
  username: z.string().min(1).max(200),
  password: SealedSecretSchema,
  tokens: TokenHashesSchema,
  /** The hash of the ticket the gateway keeps in a cookie for a second step, if one is needed. */
  ticketHash: TokenHashSchema.optional(),
  userAgent: z.string().max(500).optional(),
  ip: z.string().max(100).optional(),
});
/** The user signed in and when the gateway's tokens end (the tokens themselves never left the gateway). */
export const SessionGrantSchema = z.object({
  user: SessionUserSchema,
  session: ExpirySchema,
  refresh: ExpirySchema,
});
export type SessionGrant = z.infer<typeof SessionGrantSchema>;

export const SessionRequestSchema = z.object({ sessionHash: TokenHashSchema });
export const RefreshRequestSchema = z.object({
  refreshHash: TokenHashSchema,
  /** The rotated tokens' hashes. */
  next: TokenHashesSchema,
  userAgent: z.string().max(500).optional(),
  ip: z.string().max(100).optional(),
});
export const LogoutRequestSchema = z.object({
  sessionHash: TokenHashSchema.optional(),
  refreshHash: TokenHashSchema.optional(),
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
  /** Omitted keeps the current one. */
  password: SealedSecretSchema.optional(),
  roles: z.array(z.string().min(1).max(60)).max(20).optional(),
});
export const SaveUserReplySchema = z.object({ id: z.string().uuid() });
export const SearchCompaniesRequestSchema = z.object({ actor: ActorSchema, search: z.string().max(200) });
export const SearchCompaniesReplySchema = z.object({ companies: z.array(CompanySchema) });
export const ChangeOwnPasswordRequestSchema = z.object({
  actor: ActorSchema,
  /** The session making the change: it stays signed in, the user's other sessions end. */
  sessionHash: TokenHashSchema,
  currentPassword: SealedSecretSchema,
  newPassword: SealedSecretSchema,
});
export const ChangeOwnPasswordReplySchema = z.object({ changed: z.literal(true) });
