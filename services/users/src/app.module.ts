import { defineService, SERVICE_CONFIG, stockProjectionRole } from '@irp/platform';
import { AuthHandlers } from './auth/auth.handlers';
import { AuthService } from './auth/auth.service';
import { SessionsRepository } from './auth/sessions.repository';
import { SessionEntity } from './auth/session.entity';
import { USERS_CONFIG, usersConfig } from './config';
import { CreateUsers1763700000000 } from './database/migrations/1763700000000-CreateUsers';
import { SessionAbsoluteExpiry1764200000000 } from './database/migrations/1764200000000-SessionAbsoluteExpiry';
import { UserAdministration1764800000000 } from './database/migrations/1764800000000-UserAdministration';
import { StockProjectionEntity } from './stocks/stock-projection.entity';
import { StockProjectionService } from './stocks/stock-projection.repository';
import { StockRoleEntity } from './users/stock-role.entity';
import { UserAdministrationHandlers } from './users/user-administration.handlers';
import { UserAdministration } from './users/user-administration.service';
import { UserAuditEntity } from './users/user-audit.entity';
import { UserEntity } from './users/user.entity';
import { UsersRepository } from './users/users.repository';
import { UsersService } from './users/users.service';

/** `stock.upserted` and the bootstrap / drift repair from `stocks.list`, in the api role. */
const stockProjection = stockProjectionRole(StockProjectionService);

/**
 * The users service: users, roles, sessions, user administration with its audit trail, and its own stock
 * projection for the permission rows and the company search. Boot, ping, health and metrics come from the
 * platform.
 */
export const usersService = defineService({
  name: 'users',
  config: usersConfig,
  database: {
    entities: [UserEntity, StockRoleEntity, SessionEntity, UserAuditEntity, StockProjectionEntity],
    migrations: [
      CreateUsers1763700000000,
      SessionAbsoluteExpiry1764200000000,
      UserAdministration1764800000000,
    ],
  },
  providers: [
    { provide: USERS_CONFIG, useExisting: SERVICE_CONFIG },
    UsersRepository,
    SessionsRepository,
    UsersService,
    AuthService,
    StockProjectionService,
    UserAdministration,
  ],
  roles: {
    api: {
      handlers: [...stockProjection.handlers, AuthHandlers, UserAdministrationHandlers],
      providers: stockProjection.providers,
    },
  },
});
