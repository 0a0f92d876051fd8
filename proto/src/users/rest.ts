import { z } from 'zod';
import { StockRolesSchema } from '../common/session';
import { NEW_USER_ID } from './ids';

/** REST shapes of the auth routes (spec section 7, Auth). */

/** GET /api/admin/refreshtoken and GET /api/login: the session user. */
export const SessionUserDtoSchema = z.object({
  username: z.string(),
  user: z.object({ id: z.string(), username: z.string() }),
  /** Keyed by role name (spec section 3: "roles (object keyed by role name)"). */
  roles: z.record(z.string(), z.boolean()),
  /** Stock id -> roles. */
  stockRoles: StockRolesSchema,
  /** True while the password is one someone else set: the web app asks for a new one first (issue 34). */
  mustChangePassword: z.boolean().optional(),
  /** True while the roles need a second factor and none is set up: the web app asks for one first. */
  mustAddSecondFactor: z.boolean().optional(),
});
export type SessionUserDto = z.infer<typeof SessionUserDtoSchema>;

/** The 403 of every signed-in call but the own password change while the password is one-time (issue 34). */
export const PASSWORD_CHANGE_REQUIRED =
  'Your password was set by someone else: choose a new one (Change Password) before going on';

/** What the web app's login form sends (as Basic auth on GET /api/login). */
export interface LoginCredentials {
  username: string;
  password: string;
}

/** The Users screens (spec section 2 Users, section 7 Users) and the signed-in user's own password. */

/** `{id}` of /api/users/{id}: a user's id, or 'new' (create). */
export const UserIdParamsSchema = z.object({
  id: z.union([z.literal(NEW_USER_ID), z.string().uuid('must be a user id or new')]),
});

/** GET /api/users/: one entry per user. */
export const UserListItemSchema = z.object({ id: z.string().uuid(), username: z.string() });
export type UserListItemDto = z.infer<typeof UserListItemSchema>;

/**
 * A permission row (spec section 3): the stock's combinedTicker and companyName as the users service's
 * projection has them now (a ticker change or an archive shows), and the per-stock roles held on it.
 * `stockId` and `archived` are beyond the spec: the row's identity across ticker changes, and the archive.
 */
export const PermissionRowSchema = z.object({
  stockId: z.string().uuid().optional(),
  combinedTicker: z.string().min(1).max(40),
  companyName: z.string().max(300).optional(),
  archived: z.boolean().optional(),
  roles: z.array(z.string().min(1).max(60)).max(20),
});
export type PermissionRowDto = z.infer<typeof PermissionRowSchema>;

/** One change of a user (audit trail): who, what, when; never a password. */
export const UserAuditEntrySchema = z.object({
  at: z.string().datetime(),
  actorId: z.string().uuid().nullable(),
  actorUsername: z.string(),
  usernameBefore: z.string().nullable(),
  usernameAfter: z.string(),
  rolesBefore: z.array(z.string()),
  rolesAfter: z.array(z.string()),
  stockRolesBefore: z.record(z.string(), z.array(z.string())),
  stockRolesAfter: z.record(z.string(), z.array(z.string())),
  passwordChanged: z.boolean(),
});
export type UserAuditEntryDto = z.infer<typeof UserAuditEntrySchema>;

/**
 * GET /api/users/{id}: username and permissions (spec), plus the staff roles (`roles`, set only by an
 * Admin) and, for an Admin caller only, the audit trail of this user, newest first.
 */
export const UserDetailSchema = z.object({
  id: z.string().uuid().nullable(),
  username: z.string(),
  roles: z.array(z.string()),
  permissions: z.array(PermissionRowSchema),
  audit: z.array(UserAuditEntrySchema).optional(),
});
export type UserDetailDto = z.infer<typeof UserDetailSchema>;

/**
 * POST /api/users/{id}: username (used only when creating), permissions, password (blank keeps the current
 * one; a new user needs one) and, beyond the spec, the staff roles (left out: unchanged).
 */
export const SaveUserBodySchema = z
  .object({
    username: z.string().max(200).default(''),
    permissions: z.array(PermissionRowSchema).max(1000).default([]),
    password: z.string().max(1000).nullish(),
    roles: z.array(z.string().min(1).max(60)).max(20).optional(),
  })
  .strict();
export const SaveUserResponseSchema = z.object({
  success: z.literal(true),
  errorMessage: z.null(),
  id: z.string().uuid(),
});

/** GET /api/userEditor/companies?search=: the user editor's 'Choose Company' (exact matching). */
export const CompanySearchQuerySchema = z.object({ search: z.string().max(200).default('') });
export const CompanySchema = z.object({
  stockId: z.string().uuid(),
  combinedTicker: z.string(),
  companyName: z.string(),
  archived: z.boolean(),
});
export type CompanyDto = z.infer<typeof CompanySchema>;

/** POST /api/account/password: the signed-in user's own password (beyond the spec; docs/api/users.md). */
/** The 400 of a wrong current password: the gateway counts it as a failed sign-in of the username. */
export const WRONG_CURRENT_PASSWORD = 'The current password is not right';
export const ChangeOwnPasswordBodySchema = z
  .object({ currentPassword: z.string().min(1).max(1000), newPassword: z.string().min(1).max(1000) })
  .strict();
