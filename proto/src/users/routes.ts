import { z } from 'zod';
import { GlobalRole } from '../common/roles';
import { NoBodySchema, SuccessSchema } from '../common/rest';
import { access, defineRoutes } from '../common/routes';
import {
  ChangeOwnPasswordBodySchema,
  CompanySchema,
  CompanySearchQuerySchema,
  SaveUserBodySchema,
  SaveUserResponseSchema,
  SessionUserDtoSchema,
  UserDetailSchema,
  UserIdParamsSchema,
  UserListItemSchema,
} from './rest';
import {
  AccountSecuritySchema,
  AddPasskeyBodySchema,
  FactorAddedResponseSchema,
  PasskeyIdParamsSchema,
  PasskeyOptionsResponseSchema,
  PasskeyResponseBodySchema,
  SecondFactorCodeBodySchema,
  TotpSetupResponseSchema,
} from './second-factor';

/** The Users screens: EditUsers holders and admins (spec section 2: /users requires EditUsers). */
const EDIT_USERS = access.roles(GlobalRole.EditUsers);

const PASSWORD_POLICY =
  'A password is at least 12 characters, not the username, and not one of the common passwords the service ships; each refusal is 400 with errorMessage.';

/**
 * The users routes (docs/api/users.md): spec section 7's Auth calls (sign in, sign out, the session user) and
 * Users calls, plus two it does not list: the user editor's company search and the own password change.
 */
export const userRoutes = defineRoutes('users', {
  login: {
    method: 'GET',
    path: '/api/login',
    access: access.public('signing in: Basic auth credentials, throttled'),
    summary: 'Sign in with Basic auth; sets the session, refresh and CSRF cookies',
    response: SessionUserDtoSchema,
  },
  logout: {
    method: 'DELETE',
    path: '/api/login',
    access: access.public('signing out: ends the session the cookies name, if any'),
    summary: 'Sign out: revokes the session and clears the cookies',
    response: SuccessSchema,
  },
  refreshToken: {
    method: 'GET',
    path: '/api/admin/refreshtoken',
    access: access.public('answers 401 without a session; renews one only from a valid refresh cookie'),
    summary: 'The session user; renews an expired session from the refresh cookie',
    response: SessionUserDtoSchema,
  },
  list: {
    method: 'GET',
    path: '/api/users/',
    access: EDIT_USERS,
    summary: 'Every user (the Users list): id and username, by username',
    response: z.array(UserListItemSchema),
  },
  get: {
    method: 'GET',
    path: '/api/users/{id}',
    access: EDIT_USERS,
    summary: "A user for the editor: username, staff roles, permission rows ('new': an empty user)",
    description:
      "Permission rows name each stock as the users service's stock projection has it now. `audit` (the user's changes, newest first) is only in an Admin's answer. An unknown id is 404.",
    params: UserIdParamsSchema,
    response: UserDetailSchema,
  },
  save: {
    method: 'POST',
    path: '/api/users/{id}',
    access: EDIT_USERS,
    summary: "Save a user from the editor ('new' creates): username, permissions, password, staff roles",
    description: `A blank password keeps the current one; a new user needs one. ${PASSWORD_POLICY} A username taken (whatever its case) is 409. Staff roles (Admin, RunReports, EditUsers, InvoiceTotal), and any user who holds one, are changed only by an Admin (403). A change of roles or password ends the user's other sessions; each change is one audit row.`,
    params: UserIdParamsSchema,
    body: SaveUserBodySchema,
    response: SaveUserResponseSchema,
  },
  companies: {
    method: 'GET',
    path: '/api/userEditor/companies',
    access: EDIT_USERS,
    summary: "The user editor's 'Choose Company': stocks whose ticker or company name contains the search",
    description:
      'Exact matching anywhere in the text, ignoring case (spec section 9: fuzzy threshold 0, ignoring location); at most 50, by combinedTicker. Beyond spec section 7 (docs/api/users.md): the stocks list route is for Admin and RunReports only.',
    query: CompanySearchQuerySchema,
    response: z.array(CompanySchema),
  },
  changeOwnPassword: {
    method: 'POST',
    path: '/api/account/password',
    access: access.anySignedIn(),
    summary: "The signed-in user's own password (the header menu), the current one required",
    description: `A wrong current password is 400. ${PASSWORD_POLICY} The user's other sessions end; this one stays.`,
    body: ChangeOwnPasswordBodySchema,
    response: SuccessSchema,
  },
  signInPasskeyOptions: {
    method: 'POST',
    path: '/api/login/passkey/options',
    access: access.public('the second step of a sign-in: needs the ticket cookie of a right password'),
    summary: 'Options for a passkey assertion, after a right password (the ticket cookie)',
    body: NoBodySchema,
    response: PasskeyOptionsResponseSchema,
  },
  signInPasskey: {
    method: 'POST',
    path: '/api/login/passkey',
    access: access.public('the second step of a sign-in: needs the ticket cookie of a right password'),
    summary: 'Finish a sign-in with a passkey assertion; sets the session cookies like GET /api/login',
    body: PasskeyResponseBodySchema,
    response: SessionUserDtoSchema,
  },
  signInCode: {
    method: 'POST',
    path: '/api/login/code',
    access: access.public('the second step of a sign-in: needs the ticket cookie of a right password'),
    summary: 'Finish a sign-in with an authenticator (TOTP) code or a recovery code',
    description: 'A wrong code is 401 and counts as a failed sign-in of the username; a code is good once.',
    body: SecondFactorCodeBodySchema,
    response: SessionUserDtoSchema,
  },
  accountSecurity: {
    method: 'GET',
    path: '/api/account/security',
    access: access.anySignedIn(),
    summary: "The signed-in user's passkeys, authenticator app and recovery codes left",
    response: AccountSecuritySchema,
  },
  passkeyOptions: {
    method: 'POST',
    path: '/api/account/passkeys/options',
    access: access.anySignedIn(),
    summary: 'Options to create a passkey for the signed-in user',
    body: NoBodySchema,
    response: PasskeyOptionsResponseSchema,
  },
  addPasskey: {
    method: 'POST',
    path: '/api/account/passkeys',
    access: access.anySignedIn(),
    summary: 'Add the passkey the browser created; the first second factor also gets recovery codes',
    body: AddPasskeyBodySchema,
    response: FactorAddedResponseSchema,
  },
  removePasskey: {
    method: 'DELETE',
    path: '/api/account/passkeys/{id}',
    access: access.anySignedIn(),
    summary: "Remove one of the signed-in user's passkeys",
    params: PasskeyIdParamsSchema,
    response: SuccessSchema,
  },
  beginTotp: {
    method: 'POST',
    path: '/api/account/totp/setup',
    access: access.anySignedIn(),
    summary: 'A new authenticator-app secret (not in use until confirmed with a code)',
    body: NoBodySchema,
    response: TotpSetupResponseSchema,
  },
  confirmTotp: {
    method: 'POST',
    path: '/api/account/totp',
    access: access.anySignedIn(),
    summary: 'Confirm the authenticator app with one of its codes; it is then a second factor',
    body: SecondFactorCodeBodySchema,
    response: FactorAddedResponseSchema,
  },
  removeTotp: {
    method: 'DELETE',
    path: '/api/account/totp',
    access: access.anySignedIn(),
    summary: 'Stop using the authenticator app',
    response: SuccessSchema,
  },
  renewRecoveryCodes: {
    method: 'POST',
    path: '/api/account/recovery-codes',
    access: access.anySignedIn(),
    summary: 'New recovery codes (the old ones stop working), shown once',
    body: NoBodySchema,
    response: FactorAddedResponseSchema,
  },
});
