import { Module } from '@nestjs/common';
import { AccountSecurityController } from './account-security.controller';
import { UsersController } from './users.controller';

/** The Users routes of docs/api/users.md and the user's own second factors (the sign-in routes are the auth module's). */
@Module({ controllers: [UsersController, AccountSecurityController] })
export class UsersModule {}
