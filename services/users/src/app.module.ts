import { defineService, SERVICE_CONFIG } from '@irp/platform';
import { AuthHandlers } from './auth/auth.handlers';
import { AuthService } from './auth/auth.service';
import { SessionsRepository } from './auth/sessions.repository';
import { SessionEntity } from './auth/session.entity';
import { USERS_CONFIG, usersConfig } from './config';
import { CreateUsers1763700000000 } from './database/migrations/1763700000000-CreateUsers';
import { SessionAbsoluteExpiry1764200000000 } from './database/migrations/1764200000000-SessionAbsoluteExpiry';
import { StockRoleEntity } from './users/stock-role.entity';
import { UserEntity } from './users/user.entity';
import { UsersRepository } from './users/users.repository';
import { UsersService } from './users/users.service';

/** The users service: users, roles, sessions. Boot, ping, health and metrics come from the platform. */
export const usersService = defineService({
  name: 'users',
  config: usersConfig,
  database: {
    entities: [UserEntity, StockRoleEntity, SessionEntity],
    migrations: [CreateUsers1763700000000, SessionAbsoluteExpiry1764200000000],
  },
  providers: [
    { provide: USERS_CONFIG, useExisting: SERVICE_CONFIG },
    UsersRepository,
    SessionsRepository,
    UsersService,
    AuthService,
  ],
  roles: { api: { handlers: [AuthHandlers] } },
});
