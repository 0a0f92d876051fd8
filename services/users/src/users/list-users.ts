import { UserListItemDto } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { UsersRepository } from './users.repository';

/** The Users list (issue 21): every user by username. */
@Injectable()
export class ListUsers {
  constructor(private readonly users: UsersRepository) {}

  async list(): Promise<UserListItemDto[]> {
    return (await this.users.list()).map(({ id, username }) => ({ id, username }));
  }
}
