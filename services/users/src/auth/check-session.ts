import { ErrorCode, SessionUser } from '@irp/proto';
import { AppError, auditSecurityEvent } from '@irp/platform';
import { Inject, Injectable } from '@nestjs/common';
import { rolesNeedingSecondFactor, USERS_CONFIG, UsersConfig } from '../config';
import { sessionUserOf } from '../users/user-rules';
import { needsTouch, sessionOver, SIGNED_OUT } from '../credentials/session-rules';
import { SessionsRepository } from '../credentials/sessions.repository';
import { UsersRepository } from '../users/users.repository';

/** The gateway's session lookup: who a session token (by its hash) signs in, or 401. */
@Injectable()
export class CheckSession {
  constructor(
    private readonly sessions: SessionsRepository,
    private readonly users: UsersRepository,
    @Inject(USERS_CONFIG) private readonly config: UsersConfig,
  ) {}

  /**
   * The user of a live session; roles are read fresh, so a role change applies at once. A session idle past
   * its user's limit, or past its end, is revoked and answers why (the web app signs in again).
   */
  async check(sessionHash: string): Promise<SessionUser> {
    const found = await this.users.findBySessionToken(sessionHash);
    const now = Date.now();
    if (!found || found.session.expiresAt.getTime() <= now)
      throw new AppError(ErrorCode.Unauthenticated, SIGNED_OUT);
    const { session, user } = found;
    const sessionUser = sessionUserOf(user, rolesNeedingSecondFactor(this.config));
    const over = sessionOver(session, sessionUser.roles, this.config, now);
    if (over) {
      await this.sessions.revoke({ tokenHash: sessionHash });
      auditSecurityEvent('session.ended', { username: user.username, userId: user.id, reason: over });
      throw new AppError(ErrorCode.Unauthenticated, over);
    }
    if (needsTouch(session.lastSeenAt, now)) await this.sessions.touch(session.id);
    return sessionUser;
  }
}
