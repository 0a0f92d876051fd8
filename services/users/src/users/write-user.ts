import { isEmailAddress, Topics } from '@irp/proto';
import { AppError, auditSecurityEvent, Outbox, Tx } from '@irp/platform';
import { Injectable } from '@nestjs/common';
import { SessionsRepository } from '../credentials/sessions.repository';
import { sameRoles, toSessionUser } from './user-rules';
import { UserEntity } from './user.entity';
import { UsersRepository } from './users.repository';

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
  /**
   * With a new hash: whether it is one-time (set by someone else: the user must choose a new one at the next
   * sign-in) or the user's own choice; undefined leaves the flag as it is.
   */
  mustChangePassword?: boolean;
  actor?: ChangeActor;
  /** The session that stays signed in when a change ends the user's sessions (their own password change). */
  exceptSessionId?: string;
}

/**
 * The one place a user changes (the editor's save, the own password change and the seed's upsert all
 * write through it), in the caller's transaction.
 */
@Injectable()
export class WriteUser {
  constructor(
    private readonly users: UsersRepository,
    private readonly outbox: Outbox,
    private readonly sessions: SessionsRepository,
  ) {}

  /**
   * The user's row and per-stock roles; when the password or the roles changed, the end of the user's
   * sessions (whoever knew the old password, or held the old roles, is signed out) but `exceptSessionId`'s;
   * one audit row when anything changed; `user.upserted`.
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
        mustChangePassword: change.mustChangePassword ?? false,
      });
    } else {
      id = before.id;
      await this.users.update(tx, id, {
        roles: change.roles,
        passwordHash: change.passwordHash,
        mustChangePassword: change.passwordHash ? change.mustChangePassword : undefined,
      });
    }
    await this.users.replaceStockRoles(tx, id, change.stockRoles);
    const fresh = (await this.users.findById(id, tx))!;
    const after = toSessionUser(fresh);
    const old = before ? toSessionUser(before) : null;
    const rolesChanged = !old || !sameRoles(old, after);
    const by = change.actor?.username ?? SEED_ACTOR;
    const byTheUser = change.actor?.id === id;
    if (before && change.passwordHash)
      auditSecurityEvent(byTheUser ? 'password.changed' : 'password.set-by-other', {
        username: after.username,
        userId: id,
        by,
      });
    if (before && rolesChanged)
      auditSecurityEvent('roles.changed', { username: after.username, userId: id, by });
    if (before && (change.passwordHash || rolesChanged)) {
      const count = await this.sessions.revokeAllOf(tx, id, change.exceptSessionId);
      if (count)
        auditSecurityEvent('sessions.revoked', {
          username: after.username,
          userId: id,
          by,
          count,
          reason: change.passwordHash ? 'password changed' : 'roles changed',
        });
    }
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
    // The user hears of a changed password or roles (an existing user whose username is an address).
    const passwordChanged = Boolean(change.passwordHash);
    if (before && (passwordChanged || rolesChanged) && isEmailAddress(after.username))
      await this.outbox.add(tx, Topics.UserAccessChanged, id, {
        userId: id,
        to: after.username,
        passwordChanged,
        oneTimePassword: passwordChanged && change.mustChangePassword === true,
        rolesChanged,
        by: change.actor?.username ?? SEED_ACTOR,
        byTheUser: change.actor?.id === id,
        at: fresh.updatedAt.toISOString(),
      });
    return fresh;
  }
}
