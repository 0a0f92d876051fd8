import { GLOBAL_ROLES, SessionUser, STOCK_ROLES, Topics } from '@irp/proto';
import { AppError, Outbox, Tx, UnitOfWork } from '@irp/platform';
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

/** Who made a change, as the audit trail names them; no actor is the demo seed. */
export interface ChangeActor {
  id: string;
  username: string;
}
const SEED_ACTOR = 'seed';

/** A change of one user, ready to write: what it becomes, and who asks. */
export interface UserChange {
  /** The user as it was; null creates one. */
  before: UserEntity | null;
  username: string;
  roles: string[];
  stockRoles: Record<string, string[]>;
  /** A new hash; undefined keeps the password. */
  passwordHash?: string;
  actor?: ChangeActor;
  /** The session that stays signed in when a change ends the user's sessions (their own password change). */
  exceptSessionId?: string;
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
   * Creates or updates a user by username (the demo seed and test fixtures; the Users editor saves through
   * UserAdministration), without the password policy: see password-policy.ts. `exceptSessionId`: the
   * session that stays signed in when the change ends the user's sessions.
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
      const fresh = await this.write(tx, { ...input, ...options, username, before: existing, passwordHash });
      return toSessionUser(fresh);
    });
  }

  /**
   * Writes a change in the caller's transaction: the user's row and per-stock roles; when the password or
   * the roles changed, the end of the user's sessions (whoever knew the old password, or held the old roles,
   * is signed out) but `exceptSessionId`'s; one audit row when anything changed; `user.upserted`.
   */
  async write(tx: Tx, change: UserChange): Promise<UserEntity> {
    const { before } = change;
    let id: string;
    if (!before) {
      if (!change.passwordHash) throw new AppError('BAD_REQUEST', 'A password is required for a new user');
      id = await this.users.insert(tx, {
        username: change.username,
        passwordHash: change.passwordHash,
        roles: change.roles,
      });
    } else {
      id = before.id;
      await this.users.update(tx, id, { roles: change.roles, passwordHash: change.passwordHash });
    }
    await this.users.replaceStockRoles(tx, id, change.stockRoles);
    const fresh = (await this.users.findById(id, tx))!;
    const after = toSessionUser(fresh);
    const old = before ? toSessionUser(before) : null;
    const rolesChanged = !old || !sameRoles(old, after);
    if (before && (change.passwordHash || rolesChanged))
      await this.sessions.revokeAllOf(tx, id, change.exceptSessionId);
    if (!old || rolesChanged || change.passwordHash || old.username !== after.username)
      await this.users.addAudit(tx, {
        actorId: change.actor?.id ?? null,
        actorUsername: change.actor?.username ?? SEED_ACTOR,
        userId: id,
        usernameBefore: old?.username ?? null,
        usernameAfter: after.username,
        rolesBefore: old?.roles ?? [],
        rolesAfter: after.roles,
        stockRolesBefore: old?.stockRoles ?? {},
        stockRolesAfter: after.stockRoles,
        passwordChanged: Boolean(change.passwordHash),
      });
    await this.outbox.add(tx, Topics.UserUpserted, fresh.id, {
      ...after,
      updatedAt: fresh.updatedAt.toISOString(),
    });
    return fresh;
  }
}
