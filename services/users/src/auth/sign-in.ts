import { ErrorCode, RequestOf, SessionGrant, Topics } from '@irp/proto';
import { AppError } from '@irp/platform';
import { Inject, Injectable } from '@nestjs/common';
import { USERS_CONFIG, UsersConfig } from '../config';
import { toSessionUser } from '../users/user-rules';
import { UsersRepository } from '../users/users.repository';
import { dummyPasswordHash, sha256, verifyPassword } from '../credentials/secrets';
import { INVALID_LOGIN } from '../credentials/session-rules';
import { issueTokens } from './session-tokens';
import { SessionsRepository } from '../credentials/sessions.repository';

/** Sign-in with a username and password: a new session, its tokens stored as hashes (ADR 0003). */
@Injectable()
export class SignIn {
  constructor(
    private readonly sessions: SessionsRepository,
    private readonly users: UsersRepository,
    @Inject(USERS_CONFIG) private readonly config: UsersConfig,
  ) {}

  async signIn(req: RequestOf<typeof Topics.UsersAuthenticate>): Promise<SessionGrant> {
    const user = await this.users.findByUsername(req.username);
    const valid = await verifyPassword(user?.passwordHash ?? (await dummyPasswordHash()), req.password);
    if (!user || !valid) throw new AppError(ErrorCode.Unauthenticated, INVALID_LOGIN);
    const now = Date.now();
    const tokens = issueTokens(this.config, new Date(now + this.config.SESSION_MAX_AGE_SECONDS * 1000), now);
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
}
