import { Module } from '@nestjs/common';
import { UsersController } from './users.controller';

/** The Users routes of docs/api/users.md (the sign-in routes are the auth module's). */
@Module({ controllers: [UsersController] })
export class UsersModule {}
