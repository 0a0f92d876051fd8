import { ErrorCode, RequestOf, SessionGrant, Topics } from '@irp/proto';
import { AppError, auditSecurityEvent, UnitOfWork } from '@irp/platform';
import { Inject, Injectable } from '@nestjs/common';
import { rolesNeedingSecondFactor, USERS_CONFIG, UsersConfig } from '../config';
import { sessionUserOf } from '../users/user-rules';
import { UsersRepository } from '../users/users.repository';
import { REFRESH_REUSED, sessionOver, SIGNED_OUT } from '../credentials/session-rules';
import { tokenExpiries } from './session-tokens';
import { SessionsRepository } from '../credentials/sessions.repository';

/** A refresh: new session and refresh tokens for a live refresh token, within the session's absolute end. */
@Injectable()
export class RefreshSession {
  constructor(
    private readonly sessions: SessionsRepository,
    private readonly users: UsersRepository,
    private readonly units: UnitOfWork,
    @Inject(USERS_CONFIG) private readonly config: UsersConfig,
  ) {}

  /**
   * Rotates both tokens to the gateway's new ones (their hashes). Re-use of an already rotated refresh token
   * revokes the whole session; a session idle or over its end for its user (staff: issue 34) is refused.
   */
  async refresh(req: RequestOf<typeof Topics.UsersRefresh>): Promise<SessionGrant> {
    const hash = req.refreshHash;
    // Revoked outside the rotation transaction: the error below must not roll the revocation back.
    if (await this.sessions.revokeByPreviousRefresh(hash)) {
      auditSecurityEvent('sessions.revoked', { count: 1, reason: REFRESH_REUSED });
      throw new AppError(ErrorCode.Unauthenticated, REFRESH_REUSED);
    }
    return this.units.run(async (tx) => {
      const session = await this.sessions.lockByRefresh(tx, hash);
      if (!session || session.refreshExpiresAt.getTime() <= Date.now())
        throw new AppError(ErrorCode.Unauthenticated, SIGNED_OUT);
      const user = await this.users.findById(session.userId, tx);
      if (!user) throw new AppError(ErrorCode.Unauthenticated, SIGNED_OUT);
      const sessionUser = sessionUserOf(user, rolesNeedingSecondFactor(this.config));
      const over = sessionOver(session, sessionUser.roles, this.config, Date.now());
      if (over) throw new AppError(ErrorCode.Unauthenticated, over);
      const expiries = tokenExpiries(this.config, session.absoluteExpiresAt);
      await this.sessions.update(tx, session.id, {
        tokenHash: req.next.sessionHash,
        expiresAt: new Date(expiries.session.expiresAt),
        previousRefreshHash: session.refreshHash,
        refreshHash: req.next.refreshHash,
        refreshExpiresAt: new Date(expiries.refresh.expiresAt),
        lastSeenAt: new Date(),
        userAgent: req.userAgent ?? session.userAgent,
        ip: req.ip ?? session.ip,
      });
      return { user: sessionUser, ...expiries };
    });
  }
}
