import { kafkaSettingsOf, PlatformModule } from '@irp/platform';
import { DynamicModule, Module } from '@nestjs/common';
import { AuthHandlers } from './auth/auth.handlers';
import { AuthService } from './auth/auth.service';
import { SessionEntity } from './auth/session.entity';
import { USERS_CONFIG, USERS_SCHEMA, UsersConfig } from './config';
import { CreateUsers1763700000000 } from './database/migrations/1763700000000-CreateUsers';
import { PingHandlers } from './ping.handlers';
import { StockRoleEntity } from './users/stock-role.entity';
import { UserEntity } from './users/user.entity';
import { UsersService } from './users/users.service';

export const USERS_ENTITIES = [UserEntity, StockRoleEntity, SessionEntity];
export const USERS_MIGRATIONS = [CreateUsers1763700000000];

@Module({})
export class AppModule {
  static forRoot(config: UsersConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        PlatformModule.forService({
          kafka: kafkaSettingsOf(config, 'users'),
          database: {
            url: config.DATABASE_URL,
            schema: USERS_SCHEMA,
            entities: USERS_ENTITIES,
            migrations: USERS_MIGRATIONS,
          },
        }),
      ],
      controllers: [AuthHandlers, PingHandlers],
      providers: [{ provide: USERS_CONFIG, useValue: config }, UsersService, AuthService],
    };
  }
}
