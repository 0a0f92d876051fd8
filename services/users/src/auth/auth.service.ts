import { ErrorCode, RequestOf, SessionGrant, SessionUser, Topics } from '@irp/proto';
import { AppError, UnitOfWork } from '@irp/platform';
import { Inject, Injectable } from '@nestjs/common';
import { USERS_CONFIG, UsersConfig } from '../config';
import { UsersRepository } from '../users/users.repository';
import { toSessionUser } from '../users/users.service';
import { dummyPasswordHash, newToken, sha256, verifyPassword } from './secrets';
import { SessionsRepository } from './sessions.repository';

const INVALID_LOGIN = 'Invalid username/password';
const SIGNED_OUT = 'Not signed in';
const SESSION_OVER = 'Your session has reached its maximum length; please sign in again';

@Injectable()
export class AuthService {
  constructor(
    private readonly sessions: SessionsRepository,
    private readonly users: UsersRepository,
    private readonly units: UnitOfWork,
    @Inject(USERS_CONFIG) private readonly config: UsersConfig,
  ) {}

  async authenticate(req: RequestOf<typeof Topics.UsersAuthenticate>): Promise<SessionGrant> {
    const user = await this.users.findByUsername(req.username);
    const valid = await verifyPassword(user?.passwordHash ?? (await dummyPasswordHash()), req.password);
    if (!user || !valid) throw new AppError(ErrorCode.Unauthenticated, INVALID_LOGIN);
    const now = Date.now();
    const tokens = this.issueTokens(new Date(now + this.config.SESSION_MAX_AGE_SECONDS * 1000), now);
    await this.sessions.insert({
      userId: user.id,
      tokenHash: sha256(tokens.session.token),
      expiresAt: new Date(tokens.session.expiresAt),
      refreshHash: sha256(tokens.refresh.token),
      refreshExpiresAt: new Date(tokens.refresh.expiresAt),
      absoluteExpiresAt: new Date(now + this.config.SESSION_MAX_AGE_SECONDS * 1000),
      userAgent: req.userAgent ?? null,
      ip: req.ip ?? null,
    });
    return { user: toSessionUser(user), ...tokens };
  }

  /** The user of a live session token; roles are read fresh, so a role change applies at once. */
  async sessionUser(sessionToken: string): Promise<SessionUser> {
    const session = await this.sessions.findLive(sha256(sessionToken));
    if (!session || session.expiresAt.getTime() <= Date.now())
      throw new AppError(ErrorCode.Unauthenticated, SIGNED_OUT);
    const user = await this.users.findById(session.userId);
    if (!user) throw new AppError(ErrorCode.Unauthenticated, SIGNED_OUT);
    if (Date.now() - session.lastSeenAt.getTime() > 60_000) {
      await this.sessions.touch(session.id);
    }
    return toSessionUser(user);
  }

  /** Rotates both tokens. Re-use of an already rotated refresh token revokes the whole session. */
  async refresh(req: RequestOf<typeof Topics.UsersRefresh>): Promise<SessionGrant> {
    const hash = sha256(req.refreshToken);
    // Revoked outside the rotation transaction: the error below must not roll the revocation back.
    if (await this.sessions.revokeByPreviousRefresh(hash))
      throw new AppError(ErrorCode.Unauthenticated, 'Refresh token was already used; please sign in again');
    return this.units.run(async (tx) => {
      const session = await this.sessions.lockByRefresh(tx, hash);
      if (!session || session.refreshExpiresAt.getTime() <= Date.now())
        throw new AppError(ErrorCode.Unauthenticated, SIGNED_OUT);
      if (session.absoluteExpiresAt.getTime() <= Date.now())
        throw new AppError(ErrorCode.Unauthenticated, SESSION_OVER);
      const user = await this.users.findById(session.userId, tx);
      if (!user) throw new AppError(ErrorCode.Unauthenticated, SIGNED_OUT);
      const tokens = this.issueTokens(session.absoluteExpiresAt);
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

  async logout(req: RequestOf<typeof Topics.UsersLogout>): Promise<{ loggedOut: boolean }> {
    const loggedOut = await this.sessions.revoke({
      tokenHash: req.sessionToken ? sha256(req.sessionToken) : undefined,
      refreshHash: req.refreshToken ? sha256(req.refreshToken) : undefined,
    });
    return { loggedOut };
  }

  /** New tokens, neither outliving the session's absolute end. */
  private issueTokens(absoluteEnd: Date, now = Date.now()): Pick<SessionGrant, 'session' | 'refresh'> {
    const until = (seconds: number) =>
      new Date(Math.min(now + seconds * 1000, absoluteEnd.getTime())).toISOString();
    return {
      session: { token: newToken(), expiresAt: until(this.config.SESSION_TTL_SECONDS) },
      refresh: { token: newToken(), expiresAt: until(this.config.REFRESH_TTL_SECONDS) },
    };
  }
}
