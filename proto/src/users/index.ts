import { defineServiceContract } from '../common/contract';
import { userRoutes } from './routes';
import { SessionUserSchema } from '../common/session';
import { UserUpsertedEventSchema } from './events';
import {
  AuthenticateRequestSchema,
  LogoutReplySchema,
  LogoutRequestSchema,
  RefreshRequestSchema,
  SessionGrantSchema,
  SessionRequestSchema,
} from './messages';

export * from './events';
export * from './messages';
export * from './rest';
export * from './routes';

/** The users service: users, password hashes, roles, sessions. */
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
  },
  events: {
    UserUpserted: { topic: 'user.upserted', schema: UserUpsertedEventSchema },
  },
});
