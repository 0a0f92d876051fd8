import { ErrorCode, RequestOf, SessionGrant, Topics } from '@irp/proto';
import { AppError, UnitOfWork } from '@irp/platform';
import { Inject, Injectable } from '@nestjs/common';
import { USERS_CONFIG, UsersConfig } from '../config';
import { toSessionUser } from '../users/user-rules';
import { UsersRepository } from '../users/users.repository';
import { sha256 } from '../credentials/secrets';
import { REFRESH_REUSED, SESSION_OVER, SIGNED_OUT } from '../credentials/session-rules';
import { issueTokens } from './session-tokens';
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

  /** Rotates both tokens. Re-use of an already rotated refresh token revokes the whole session. */
  async refresh(req: RequestOf<typeof Topics.UsersRefresh>): Promise<SessionGrant> {
    const hash = sha256(req.refreshToken);
    // Revoked outside the rotation transaction: the error below must not roll the revocation back.
    if (await this.sessions.revokeByPreviousRefresh(hash))
      throw new AppError(ErrorCode.Unauthenticated, REFRESH_REUSED);
    return this.units.run(async (tx) => {
      const session = await this.sessions.lockByRefresh(tx, hash);
      if (!session || session.refreshExpiresAt.getTime() <= Date.now())
        throw new AppError(ErrorCode.Unauthenticated, SIGNED_OUT);
      if (session.absoluteExpiresAt.getTime() <= Date.now())
        throw new AppError(ErrorCode.Unauthenticated, SESSION_OVER);
      const user = await this.users.findById(session.userId, tx);
      if (!user) throw new AppError(ErrorCode.Unauthenticated, SIGNED_OUT);
      const tokens = issueTokens(this.config, session.absoluteExpiresAt);
      await this.sessions.update(tx, session.id, {
        tokenHash: sha256(tokens.session.token),
        expiresAt: new Date(tokens.session.expiresAt),
        previousRefreshHash: session.refreshHash,
        refreshHash: sha256(tokens.refresh.token),
        refreshExpiresAt: new Date(tokens.refresh.expiresAt),
        lastSeenAt: new Date(),
        userAgent: req.userAgent ?? session.userAgent,
        ip: req.ip ?? session.ip,
      });
      return { user: toSessionUser(user), ...tokens };
    });
  }
}
