import {
  ErrorCode,
  isAuthenticatorCode,
  normalizeRecoveryCode,
  RequestOf,
  SealContext,
  SECOND_FACTOR_EXPIRED,
  SECOND_FACTOR_REFUSED,
  SecondFactorMethod,
  Topics,
} from '@irp/proto';
import { AppError, auditSecurityEvent, SealedInbox, tokenHash } from '@irp/platform';
import { Inject, Injectable } from '@nestjs/common';
import { USERS_CONFIG, UsersConfig } from '../config';
import type { UserEntity } from '../users/user.entity';
import { UsersRepository } from '../users/users.repository';
import { Ceremonies, totpStepOf } from './ceremonies';
import { SecondFactorsRepository } from './second-factors.repository';

/** Wrong second factors a ticket takes before it ends (the password must then be given again). */
export const TICKET_FAILURES = 5;

export interface SecondFactorNeeded {
  secondFactor: { methods: SecondFactorMethod[] };
}

/**
 * The second step of a staff sign-in (issue 34). A right password of a user with a second factor opens a
 * ticket (the hash of the gateway's cookie, SECOND_FACTOR_TICKET_SECONDS); the ticket takes a passkey
 * assertion of one of the user's passkeys, a code of their authenticator app (each time step once) or an
 * unused recovery code, and is good once. TICKET_FAILURES wrong ones end it.
 */
@Injectable()
export class SecondFactorSignIn {
  constructor(
    private readonly factors: SecondFactorsRepository,
    private readonly users: UsersRepository,
    private readonly ceremonies: Ceremonies,
    private readonly inbox: SealedInbox,
    @Inject(USERS_CONFIG) private readonly config: UsersConfig,
  ) {}

  async methodsOf(userId: string): Promise<SecondFactorMethod[]> {
    const [passkeys, totp, codes] = await Promise.all([
      this.factors.passkeysOf(userId),
      this.factors.totpOf(userId),
      this.factors.recoveryCodesLeft(userId),
    ]);
    return [
      ...(passkeys.length ? (['passkey'] as const) : []),
      ...(totp?.confirmed ? (['totp'] as const) : []),
      ...(codes > 0 ? (['recovery'] as const) : []),
    ];
  }

  async open(user: UserEntity, ticketHash: string | undefined): Promise<SecondFactorNeeded> {
    if (!ticketHash)
      throw new AppError(
        ErrorCode.BadRequest,
        'A second factor is needed, and the sign-in carried no ticket',
      );
    await this.factors.openTicket(ticketHash, user.id, this.config.SECOND_FACTOR_TICKET_SECONDS);
    return { secondFactor: { methods: await this.methodsOf(user.id) } };
  }

  async passkeyOptions(ticketHash: string): Promise<{ options: Record<string, unknown> }> {
    const ticket = await this.factors.ticket(ticketHash);
    if (!ticket) throw new AppError(ErrorCode.Unauthenticated, SECOND_FACTOR_EXPIRED);
    const passkeys = await this.factors.passkeysOf(ticket.userId);
    if (!passkeys.length) throw new AppError(ErrorCode.BadRequest, 'This user has no passkey: use a code');
    const options = await this.ceremonies.authenticationOptions(passkeys);
    await this.factors.setTicketChallenge(ticketHash, options.challenge as string);
    return { options };
  }

  /** The user of the ticket, once its second factor is right; 401 otherwise (counted against the ticket). */
  async verify(req: RequestOf<typeof Topics.UsersSecondFactor>): Promise<UserEntity> {
    const ticket = await this.factors.ticket(req.ticketHash);
    if (!ticket) throw new AppError(ErrorCode.Unauthenticated, SECOND_FACTOR_EXPIRED);
    const user = await this.users.findById(ticket.userId);
    if (!user) throw new AppError(ErrorCode.Unauthenticated, SECOND_FACTOR_EXPIRED);
    const method = req.passkey ? 'passkey' : 'code';
    const right = req.passkey
      ? await this.passkeyRight(ticket.userId, ticket.challenge, req.passkey)
      : await this.codeRight(ticket.userId, this.inbox.open(req.code!, SealContext.SecondFactorCode));
    if (!right) {
      await this.factors.ticketFailed(req.ticketHash, TICKET_FAILURES);
      auditSecurityEvent('second-factor.failed', { username: user.username, userId: user.id, method });
      throw new AppError(ErrorCode.Unauthenticated, SECOND_FACTOR_REFUSED);
    }
    if (!(await this.factors.closeTicket(req.ticketHash)))
      throw new AppError(ErrorCode.Unauthenticated, SECOND_FACTOR_EXPIRED);
    auditSecurityEvent('second-factor.succeeded', {
      username: user.username,
      userId: user.id,
      method: right,
    });
    return user;
  }

  private async passkeyRight(
    userId: string,
    challenge: string | null,
    response: Record<string, unknown>,
  ): Promise<'passkey' | undefined> {
    if (!challenge || typeof response.id !== 'string') return undefined;
    const passkey = await this.factors.passkeyByCredential(response.id);
    if (!passkey || passkey.userId !== userId) return undefined;
    const counter = await this.ceremonies.verifyAuthentication(response, challenge, passkey);
    if (counter === undefined) return undefined;
    // A counter that did not move is an authenticator without one (0), not a clone: only a step back is.
    if (counter !== 0 && counter <= passkey.counter) return undefined;
    return (await this.factors.usePasskey(passkey.id, passkey.counter, counter)) ? 'passkey' : undefined;
  }

  private async codeRight(userId: string, typed: string): Promise<'totp' | 'recovery' | undefined> {
    const code = typed.replace(/\s/g, '');
    if (isAuthenticatorCode(code)) {
      const totp = await this.factors.totpOf(userId);
      if (!totp?.confirmed) return undefined;
      const step = totpStepOf(this.inbox.open(totp.sealedSecret, SealContext.TotpSecret), code);
      return step !== undefined && (await this.factors.useTotpStep(userId, step)) ? 'totp' : undefined;
    }
    const normalized = normalizeRecoveryCode(code);
    if (!normalized) return undefined;
    return (await this.factors.useRecoveryCode(userId, tokenHash(normalized))) ? 'recovery' : undefined;
  }
}
