import { GLOBAL_ROLES, SessionUser, STOCK_ROLES, Topics } from '@irp/proto';
import { AppError, Outbox, UnitOfWork } from '@irp/platform';
import { Injectable } from '@nestjs/common';
import { hashPassword } from '../auth/secrets';
import { UserEntity } from './user.entity';
import { UsersRepository } from './users.repository';

export interface UserInput {
  username: string;
  /** Undefined leaves the password unchanged (spec: blank password leaves it unchanged). */
  password?: string;
  roles: string[];
  stockRoles: Record<string, string[]>;
}

export function toSessionUser(user: UserEntity): SessionUser {
  const stockRoles: Record<string, string[]> = {};
  for (const s of user.stockRoles ?? []) if (s.roles.length) stockRoles[s.stockId] = [...s.roles].sort();
  return { id: user.id, username: user.username, roles: [...user.roles].sort(), stockRoles };
}

/** Only the role names of spec section 6 are stored. */
export function checkRoles(input: Pick<UserInput, 'roles' | 'stockRoles'>): void {
  const unknownGlobal = input.roles.filter((r) => !(GLOBAL_ROLES as readonly string[]).includes(r));
  if (unknownGlobal.length) throw new AppError('BAD_REQUEST', `Unknown role: ${unknownGlobal.join(', ')}`);
  for (const roles of Object.values(input.stockRoles)) {
    const unknown = roles.filter((r) => !(STOCK_ROLES as readonly string[]).includes(r));
    if (unknown.length) throw new AppError('BAD_REQUEST', `Unknown stock role: ${unknown.join(', ')}`);
  }
}

@Injectable()
export class UsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly units: UnitOfWork,
    private readonly outbox: Outbox,
  ) {}

  /** Creates or updates a user by username, and emits `user.upserted` in the same transaction. */
  async upsert(input: UserInput): Promise<SessionUser> {
    const username = input.username.trim();
    if (!username) throw new AppError('BAD_REQUEST', 'Username is required');
    checkRoles(input);
    const passwordHash = input.password ? await hashPassword(input.password) : undefined;
    return this.units.run(async (tx) => {
      const existing = await this.users.findByUsername(username, tx);
      let id: string;
      if (!existing) {
        if (!passwordHash) throw new AppError('BAD_REQUEST', 'A password is required for a new user');
        id = await this.users.insert(tx, { username, passwordHash, roles: input.roles });
      } else {
        id = existing.id;
        await this.users.update(tx, id, { roles: input.roles, passwordHash });
      }
      await this.users.replaceStockRoles(tx, id, input.stockRoles);
      const fresh = (await this.users.findById(id, tx))!;
      const sessionUser = toSessionUser(fresh);
      await this.outbox.add(tx, Topics.UserUpserted, fresh.id, {
        ...sessionUser,
        updatedAt: fresh.updatedAt.toISOString(),
      });
      return sessionUser;
    });
  }
}
