import { ErrorCode, RequestOf, SessionGrant, SessionUser, Topics } from '@irp/proto';
import { AppError } from '@irp/platform';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource, IsNull } from 'typeorm';
import { USERS_CONFIG, UsersConfig } from '../config';
import { toSessionUser, UsersService } from '../users/users.service';
import { dummyPasswordHash, newToken, sha256, verifyPassword } from './secrets';
import { SessionEntity } from './session.entity';

const INVALID_LOGIN = 'Invalid username/password';
const SIGNED_OUT = 'Not signed in';

@Injectable()
export class AuthService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly users: UsersService,
    @Inject(USERS_CONFIG) private readonly config: UsersConfig,
  ) {}

  private get sessions() {
    return this.dataSource.getRepository(SessionEntity);
  }

  async authenticate(req: RequestOf<typeof Topics.UsersAuthenticate>): Promise<SessionGrant> {
    const user = await this.users.findByUsername(req.username);
    const valid = await verifyPassword(user?.passwordHash ?? (await dummyPasswordHash()), req.password);
    if (!user || !valid) throw new AppError(ErrorCode.Unauthenticated, INVALID_LOGIN);
    const tokens = this.issueTokens();
    await this.sessions.insert({
      userId: user.id,
      tokenHash: sha256(tokens.session.token),
      expiresAt: new Date(tokens.session.expiresAt),
      refreshHash: sha256(tokens.refresh.token),
      refreshExpiresAt: new Date(tokens.refresh.expiresAt),
      userAgent: req.userAgent ?? null,
      ip: req.ip ?? null,
    });
    return { user: toSessionUser(user), ...tokens };
  }

  /** The user of a live session token; roles are read fresh, so a role change applies at once. */
  async sessionUser(sessionToken: string): Promise<SessionUser> {
    const session = await this.sessions.findOne({
      where: { tokenHash: sha256(sessionToken), revokedAt: IsNull() },
    });
    if (!session || session.expiresAt.getTime() <= Date.now())
      throw new AppError(ErrorCode.Unauthenticated, SIGNED_OUT);
    const user = await this.users.findById(session.userId);
    if (!user) throw new AppError(ErrorCode.Unauthenticated, SIGNED_OUT);
    if (Date.now() - session.lastSeenAt.getTime() > 60_000) {
      await this.sessions.update(session.id, { lastSeenAt: new Date() });
    }
    return toSessionUser(user);
  }

  /** Rotates both tokens. Re-use of an already rotated refresh token revokes the whole session. */
  async refresh(req: RequestOf<typeof Topics.UsersRefresh>): Promise<SessionGrant> {
    const hash = sha256(req.refreshToken);
    // Revoked outside the rotation transaction: the error below must not roll the revocation back.
    const reused = await this.sessions.update(
      { previousRefreshHash: hash, revokedAt: IsNull() },
      { revokedAt: new Date() },
    );
    if (reused.affected)
      throw new AppError(ErrorCode.Unauthenticated, 'Refresh token was already used; please sign in again');
    return this.dataSource.transaction(async (m) => {
      const repo = m.getRepository(SessionEntity);
      const session = await repo
        .createQueryBuilder('s')
        .setLock('pessimistic_write')
        .where('s.refresh_hash = :hash AND s.revoked_at IS NULL', { hash })
        .getOne();
      if (!session || session.refreshExpiresAt.getTime() <= Date.now())
        throw new AppError(ErrorCode.Unauthenticated, SIGNED_OUT);
      const user = await this.users.findById(session.userId, m);
      if (!user) throw new AppError(ErrorCode.Unauthenticated, SIGNED_OUT);
      const tokens = this.issueTokens();
      await repo.update(session.id, {
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
    const qb = this.sessions
      .createQueryBuilder()
      .update()
      .set({ revokedAt: () => 'now()' })
      .where('revoked_at IS NULL');
    const clauses: string[] = [];
    const params: Record<string, string> = {};
    if (req.sessionToken) {
      clauses.push('token_hash = :t');
      params.t = sha256(req.sessionToken);
    }
    if (req.refreshToken) {
      clauses.push('refresh_hash = :r');
      params.r = sha256(req.refreshToken);
    }
    if (!clauses.length) return { loggedOut: false };
    const result = await qb.andWhere(`(${clauses.join(' OR ')})`, params).execute();
    return { loggedOut: (result.affected ?? 0) > 0 };
  }

  private issueTokens(): Pick<SessionGrant, 'session' | 'refresh'> {
    const now = Date.now();
    return {
      session: {
        token: newToken(),
        expiresAt: new Date(now + this.config.SESSION_TTL_SECONDS * 1000).toISOString(),
      },
      refresh: {
        token: newToken(),
        expiresAt: new Date(now + this.config.REFRESH_TTL_SECONDS * 1000).toISOString(),
      },
    };
  }
}
