import 'reflect-metadata';
import { usersService } from './app.module';

export const startUsersService = usersService.main(module);
