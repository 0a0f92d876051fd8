import { defineServiceContract } from '../common/contract';
import { userRoutes } from './routes';
import { SessionUserSchema } from '../common/session';
import { UserAccessChangedEventSchema, UserUpsertedEventSchema } from './events';
import { UserDetailSchema } from './rest';
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
      reply: SessionGrantSchema,
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
