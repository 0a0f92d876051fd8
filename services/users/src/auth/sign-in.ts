import { ErrorCode, RequestOf, SealContext, SessionGrant, Topics } from '@irp/proto';
import { AppError, SealedInbox } from '@irp/platform';
import { Inject, Injectable } from '@nestjs/common';
import { rolesNeedingSecondFactor, USERS_CONFIG, UsersConfig } from '../config';
import { sessionUserOf } from '../users/user-rules';
import type { UserEntity } from '../users/user.entity';
import { UsersRepository } from '../users/users.repository';
import { dummyPasswordHash, verifyPassword } from '../credentials/secrets';
import { absoluteEndOf, INVALID_LOGIN } from '../credentials/session-rules';
import { tokenExpiries } from './session-tokens';
import { SessionsRepository } from '../credentials/sessions.repository';
import { SecondFactorSignIn, type SecondFactorNeeded } from '../second-factor/second-factor-sign-in';

/** Where a session comes from and which tokens (their hashes) it is made of. */
export interface SessionRequest {
  tokens: { sessionHash: string; refreshHash: string };
  userAgent?: string;
  ip?: string;
}

/**
 * Sign-in with a username and the password sealed for this service: a new session of the gateway's tokens,
 * stored as the hashes it sent (ADR 0003); staff sessions end sooner (STAFF_SESSION_MAX_AGE_SECONDS). A user
 * with a second factor gets a ticket for it instead (issue 34): the session comes with the second step.
 */
@Injectable()
export class SignIn {
  constructor(
    private readonly sessions: SessionsRepository,
    private readonly users: UsersRepository,
    private readonly inbox: SealedInbox,
    private readonly secondFactor: SecondFactorSignIn,
    @Inject(USERS_CONFIG) private readonly config: UsersConfig,
  ) {}

  async signIn(req: RequestOf<typeof Topics.UsersAuthenticate>): Promise<SessionGrant | SecondFactorNeeded> {
    const password = this.inbox.open(req.password, SealContext.Password);
    const user = await this.users.findByUsername(req.username);
    const valid = await verifyPassword(user?.passwordHash ?? (await dummyPasswordHash()), password);
    if (!user || !valid) throw new AppError(ErrorCode.Unauthenticated, INVALID_LOGIN);
    if (user.hasSecondFactor) return this.secondFactor.open(user, req.ticketHash);
    return this.grant(user, req);
  }

  /** The second step: a passkey assertion or a code for the ticket of a right password, then the session. */
  async finish(req: RequestOf<typeof Topics.UsersSecondFactor>): Promise<SessionGrant> {
    return this.grant(await this.secondFactor.verify(req), req);
  }

  /** A new session for a user whose credentials were checked. */
  async grant(user: UserEntity, req: SessionRequest): Promise<SessionGrant> {
    const now = Date.now();
    const sessionUser = sessionUserOf(user, rolesNeedingSecondFactor(this.config));
    const absoluteEnd = absoluteEndOf(sessionUser.roles, this.config, now);
    const expiries = tokenExpiries(this.config, absoluteEnd, now);
    await this.sessions.insert({
      userId: user.id,
      tokenHash: req.tokens.sessionHash,
      expiresAt: new Date(expiries.session.expiresAt),
      refreshHash: req.tokens.refreshHash,
      refreshExpiresAt: new Date(expiries.refresh.expiresAt),
      absoluteExpiresAt: absoluteEnd,
      userAgent: req.userAgent ?? null,
      ip: req.ip ?? null,
    });
    return { user: sessionUser, ...expiries };
  }
}
