import { defineService, sealedInboxProvider, SERVICE_CONFIG, stockProjectionRole } from '@irp/platform';
import { AuthHandlers } from './auth/auth.handlers';
import { CheckSession } from './auth/check-session';
import { RefreshSession } from './auth/refresh-session';
import { SessionsRepository } from './credentials/sessions.repository';
import { SessionEntity } from './credentials/session.entity';
import { SignIn } from './auth/sign-in';
import { SignOut } from './auth/sign-out';
import { USERS_CONFIG, usersConfig } from './config';
import { CreateUsers1763700000000 } from './database/migrations/1763700000000-CreateUsers';
import { SessionAbsoluteExpiry1764200000000 } from './database/migrations/1764200000000-SessionAbsoluteExpiry';
import { UserAdministration1764800000000 } from './database/migrations/1764800000000-UserAdministration';
import { OneTimePasswords1796800000000 } from './database/migrations/1796800000000-OneTimePasswords';
import { SecondFactors1797000000000 } from './database/migrations/1797000000000-SecondFactors';
import { AccountSecurity } from './second-factor/account-security';
import { Ceremonies } from './second-factor/ceremonies';
import { SECOND_FACTOR_ENTITIES } from './second-factor/second-factor.entities';
import { SecondFactorHandlers } from './second-factor/second-factor.handlers';
import { SecondFactorSignIn } from './second-factor/second-factor-sign-in';
import { SecondFactorsRepository } from './second-factor/second-factors.repository';
import { StockProjectionEntity } from './stocks/stock-projection.entity';
import { StockProjectionService } from './stocks/stock-projection.repository';
import { ChangeOwnPassword } from './users/change-own-password';
import { GetUser } from './users/get-user';
import { ListUsers } from './users/list-users';
import { SaveUser } from './users/save-user';
import { SearchCompanies } from './users/search-companies';
import { StockRoleEntity } from './users/stock-role.entity';
import { UpsertUser } from './users/upsert-user';
import { UserAdministrationHandlers } from './users/user-administration.handlers';
import { UserAuditEntity } from './users/user-audit.entity';
import { UserEntity } from './users/user.entity';
import { UsersRepository } from './users/users.repository';
import { WriteUser } from './users/write-user';

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
    entities: [
      UserEntity,
      StockRoleEntity,
      SessionEntity,
      UserAuditEntity,
      StockProjectionEntity,
      ...SECOND_FACTOR_ENTITIES,
    ],
    migrations: [
      CreateUsers1763700000000,
      SessionAbsoluteExpiry1764200000000,
      UserAdministration1764800000000,
      OneTimePasswords1796800000000,
      SecondFactors1797000000000,
    ],
  },
  providers: [
    { provide: USERS_CONFIG, useExisting: SERVICE_CONFIG },
    UsersRepository,
    SessionsRepository,
    sealedInboxProvider('users'),
    StockProjectionService,
    WriteUser,
    UpsertUser,
    SignIn,
    CheckSession,
    RefreshSession,
    SignOut,
    ListUsers,
    GetUser,
    SaveUser,
    SearchCompanies,
    ChangeOwnPassword,
    SecondFactorsRepository,
    Ceremonies,
    SecondFactorSignIn,
    AccountSecurity,
  ],
  roles: {
    api: {
      handlers: [...stockProjection.handlers, AuthHandlers, UserAdministrationHandlers, SecondFactorHandlers],
      providers: stockProjection.providers,
    },
  },
});
