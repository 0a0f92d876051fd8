import { z } from 'zod';
import { defineServiceContract } from '../common/contract';
import { userRoutes } from './routes';
import { SessionUserSchema } from '../common/session';
import { UserAccessChangedEventSchema, UserUpsertedEventSchema } from './events';
import { UserDetailSchema } from './rest';
import {
  AccountSecurityRequestSchema,
  AccountSecuritySchema,
  AddPasskeyRequestSchema,
  BeginTotpRequestSchema,
  ConfirmTotpRequestSchema,
  DoneReplySchema,
  FactorAddedReplySchema,
  PasskeyOptionsReplySchema,
  RemovePasskeyRequestSchema,
  RemoveTotpRequestSchema,
  RenewRecoveryCodesRequestSchema,
  SecondFactorNeededSchema,
  SecondFactorRequestSchema,
  SignInPasskeyOptionsRequestSchema,
} from './second-factor';
import {
  AuthenticateRequestSchema,
  ChangeOwnPasswordReplySchema,
  ChangeOwnPasswordRequestSchema,
  GetUserRequestSchema,
  ListUsersReplySchema,
  ListUsersRequestSchema,
  SaveUserReplySchema,
  SaveUserRequestSchema,
  SearchCompaniesReplySchema,
  SearchCompaniesRequestSchema,
  LogoutReplySchema,
  LogoutRequestSchema,
  RefreshRequestSchema,
  SessionGrantSchema,
  SessionRequestSchema,
} from './messages';

export * from './events';
export * from './ids';
export * from './messages';
export * from './rest';
export * from './routes';
export * from './second-factor';
export * from './second-factor-texts';

/**
 * The users service: users, password hashes, roles, sessions, user administration (with its audit trail)
 * and the user editor's company search over its own stock projection (consumes `stock.upserted`).
 */
export const usersContract = defineServiceContract({
  service: 'users',
  routes: userRoutes,
  requests: {
    UsersAuthenticate: {
      topic: 'users.authenticate',
      request: AuthenticateRequestSchema,
      reply: z.union([SessionGrantSchema, SecondFactorNeededSchema]),
    },
    UsersSignInPasskeyOptions: {
      topic: 'users.sign-in-passkey-options',
      request: SignInPasskeyOptionsRequestSchema,
      reply: PasskeyOptionsReplySchema,
    },
    UsersSecondFactor: {
      topic: 'users.second-factor',
      request: SecondFactorRequestSchema,
      reply: SessionGrantSchema,
    },
    UsersAccountSecurity: {
      topic: 'users.account-security',
      request: AccountSecurityRequestSchema,
      reply: AccountSecuritySchema,
    },
    UsersPasskeyOptions: {
      topic: 'users.passkey-options',
      request: AccountSecurityRequestSchema,
      reply: PasskeyOptionsReplySchema,
    },
    UsersAddPasskey: {
      topic: 'users.add-passkey',
      request: AddPasskeyRequestSchema,
      reply: FactorAddedReplySchema,
      mutates: true,
    },
    UsersRemovePasskey: {
      topic: 'users.remove-passkey',
      request: RemovePasskeyRequestSchema,
      reply: DoneReplySchema,
      mutates: true,
    },
    UsersBeginTotp: {
      topic: 'users.begin-totp',
      request: BeginTotpRequestSchema,
      reply: DoneReplySchema,
      mutates: true,
    },
    UsersConfirmTotp: {
      topic: 'users.confirm-totp',
      request: ConfirmTotpRequestSchema,
      reply: FactorAddedReplySchema,
      mutates: true,
    },
    UsersRemoveTotp: {
      topic: 'users.remove-totp',
      request: RemoveTotpRequestSchema,
      reply: DoneReplySchema,
      mutates: true,
    },
    UsersRenewRecoveryCodes: {
      topic: 'users.renew-recovery-codes',
      request: RenewRecoveryCodesRequestSchema,
      reply: FactorAddedReplySchema,
      mutates: true,
    },
    UsersSession: { topic: 'users.session', request: SessionRequestSchema, reply: SessionUserSchema },
    UsersRefresh: { topic: 'users.refresh', request: RefreshRequestSchema, reply: SessionGrantSchema },
    UsersLogout: { topic: 'users.logout', request: LogoutRequestSchema, reply: LogoutReplySchema },
    UsersList: { topic: 'users.list', request: ListUsersRequestSchema, reply: ListUsersReplySchema },
    UsersGet: { topic: 'users.get', request: GetUserRequestSchema, reply: UserDetailSchema },
    UsersSave: {
      topic: 'users.save',
      request: SaveUserRequestSchema,
      reply: SaveUserReplySchema,
      mutates: true,
    },
    UsersSearchCompanies: {
      topic: 'users.search-companies',
      request: SearchCompaniesRequestSchema,
      reply: SearchCompaniesReplySchema,
    },
    UsersChangeOwnPassword: {
      topic: 'users.change-own-password',
      request: ChangeOwnPasswordRequestSchema,
      reply: ChangeOwnPasswordReplySchema,
      mutates: true,
    },
  },
  events: {
    UserUpserted: { topic: 'user.upserted', schema: UserUpsertedEventSchema },
    UserAccessChanged: { topic: 'user.access-changed', schema: UserAccessChangedEventSchema },
  },
});
