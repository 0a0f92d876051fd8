import { ErrorCode, SessionUser } from '@irp/proto';
import { AppError } from '@irp/platform';
import { Injectable } from '@nestjs/common';
import { toSessionUser } from '../users/user-rules';
import { UsersRepository } from '../users/users.repository';
import { sha256 } from '../credentials/secrets';
import { needsTouch, SIGNED_OUT } from '../credentials/session-rules';
import { SessionsRepository } from '../credentials/sessions.repository';

/** The gateway's session lookup: who a session token signs in, or 401. */
@Injectable()
export class CheckSession {
  constructor(
    private readonly sessions: SessionsRepository,
    private readonly users: UsersRepository,
  ) {}

  /** The user of a live session token; roles are read fresh, so a role change applies at once. */
  async check(sessionToken: string): Promise<SessionUser> {
    const session = await this.sessions.findLive(sha256(sessionToken));
    if (!session || session.expiresAt.getTime() <= Date.now())
      throw new AppError(ErrorCode.Unauthenticated, SIGNED_OUT);
    const user = await this.users.findById(session.userId);
    if (!user) throw new AppError(ErrorCode.Unauthenticated, SIGNED_OUT);
    if (needsTouch(session.lastSeenAt, Date.now())) {
      await this.sessions.touch(session.id);
    }
    return toSessionUser(user);
  }
}
