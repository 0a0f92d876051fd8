import { GLOBAL_ROLES, SessionUser, STOCK_ROLES, Topics } from '@irp/proto';
import { AppError, Outbox, UnitOfWork } from '@irp/platform';
import { Injectable } from '@nestjs/common';
import { hashPassword, verifyPassword } from '../auth/secrets';
import { SessionsRepository } from '../auth/sessions.repository';
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

/** Whether two users hold the same global and per-stock roles (lists compared as sets). */
export function sameRoles(
  a: Pick<SessionUser, 'roles' | 'stockRoles'>,
  b: Pick<SessionUser, 'roles' | 'stockRoles'>,
) {
  const key = (u: Pick<SessionUser, 'roles' | 'stockRoles'>) =>
    JSON.stringify([
      [...u.roles].sort(),
      Object.keys(u.stockRoles)
        .filter((id) => u.stockRoles[id].length)
        .sort()
        .map((id) => [id, [...u.stockRoles[id]].sort()]),
    ]);
  return key(a) === key(b);
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
    private readonly sessions: SessionsRepository,
  ) {}

  /**
   * Creates or updates a user by username, and emits `user.upserted` in the same transaction. A changed
   * password or changed roles end the user's sessions (whoever knew the old password, or held the old
   * roles, is signed out), but `exceptSessionId`'s: the session of a user changing their own.
   */
  async upsert(input: UserInput, options: { exceptSessionId?: string } = {}): Promise<SessionUser> {
    const username = input.username.trim();
    if (!username) throw new AppError('BAD_REQUEST', 'Username is required');
    checkRoles(input);
    const before = await this.users.findByUsername(username);
    // The same password given again (the seed does, every run) is no change: the hash is not replaced.
    const samePassword =
      !!before && !!input.password && (await verifyPassword(before.passwordHash, input.password));
    const passwordHash = input.password && !samePassword ? await hashPassword(input.password) : undefined;
    return this.units.run(async (tx) => {
      const existing = await this.users.findByUsername(username, tx);
      let id: string;
      if (!existing) {
        if (!input.password) throw new AppError('BAD_REQUEST', 'A password is required for a new user');
        id = await this.users.insert(tx, {
          username,
          passwordHash: passwordHash ?? (await hashPassword(input.password)),
          roles: input.roles,
        });
      } else {
        id = existing.id;
        await this.users.update(tx, id, { roles: input.roles, passwordHash });
      }
      await this.users.replaceStockRoles(tx, id, input.stockRoles);
      const fresh = (await this.users.findById(id, tx))!;
      const sessionUser = toSessionUser(fresh);
      if (existing) {
        const rolesChanged = !sameRoles(toSessionUser(existing), sessionUser);
        if (passwordHash || rolesChanged) await this.sessions.revokeAllOf(tx, id, options.exceptSessionId);
      }
      await this.outbox.add(tx, Topics.UserUpserted, fresh.id, {
        ...sessionUser,
        updatedAt: fresh.updatedAt.toISOString(),
      });
      return sessionUser;
    });
  }
}
