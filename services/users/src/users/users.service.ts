import { GLOBAL_ROLES, SessionUser, STOCK_ROLES, Topics } from '@irp/proto';
import { AppError, Outbox } from '@irp/platform';
import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { hashPassword } from '../auth/secrets';
import { StockRoleEntity } from './stock-role.entity';
import { UserEntity } from './user.entity';

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
    private readonly dataSource: DataSource,
    private readonly outbox: Outbox,
  ) {}

  findByUsername(
    username: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<UserEntity | null> {
    return manager
      .getRepository(UserEntity)
      .createQueryBuilder('u')
      .leftJoinAndSelect('u.stockRoles', 's')
      .where('lower(u.username) = lower(:username)', { username: username.trim() })
      .getOne();
  }

  findById(id: string, manager: EntityManager = this.dataSource.manager): Promise<UserEntity | null> {
    return manager.getRepository(UserEntity).findOne({ where: { id }, relations: { stockRoles: true } });
  }

  /** Creates or updates a user by username, and emits `user.upserted` in the same transaction. */
  async upsert(input: UserInput): Promise<SessionUser> {
    const username = input.username.trim();
    if (!username) throw new AppError('BAD_REQUEST', 'Username is required');
    checkRoles(input);
    const passwordHash = input.password ? await hashPassword(input.password) : undefined;
    return this.dataSource.transaction(async (m) => {
      const existing = await this.findByUsername(username, m);
      let id: string;
      if (!existing) {
        if (!passwordHash) throw new AppError('BAD_REQUEST', 'A password is required for a new user');
        const inserted = await m.insert(UserEntity, { username, passwordHash, roles: input.roles });
        id = (inserted.identifiers[0] as { id: string }).id;
      } else {
        id = existing.id;
        await m.update(UserEntity, id, {
          roles: input.roles,
          ...(passwordHash ? { passwordHash } : {}),
          updatedAt: new Date(),
        });
        await m.delete(StockRoleEntity, { userId: id });
      }
      const rows = Object.entries(input.stockRoles)
        .filter(([, roles]) => roles.length)
        .map(([stockId, roles]) => ({ userId: id, stockId, roles: [...new Set(roles)] }));
      if (rows.length) await m.insert(StockRoleEntity, rows);
      const fresh = (await this.findById(id, m))!;
      const sessionUser = toSessionUser(fresh);
      await this.outbox.add(m, Topics.UserUpserted, fresh.id, {
        ...sessionUser,
        updatedAt: fresh.updatedAt.toISOString(),
      });
      return sessionUser;
    });
  }
}
