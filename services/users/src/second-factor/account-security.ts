import {
  AccountSecurityDto,
  ErrorCode,
  LAST_REQUIRED_FACTOR,
  RequestOf,
  SealContext,
  Topics,
} from '@irp/proto';
import { AppError, auditSecurityEvent, SealedInbox, Tx, UnitOfWork } from '@irp/platform';
import { Inject, Injectable } from '@nestjs/common';
import { SIGNED_OUT } from '../credentials/session-rules';
import { rolesNeedingSecondFactor, USERS_CONFIG, UsersConfig } from '../config';
import type { UserEntity } from '../users/user.entity';
import { UsersRepository } from '../users/users.repository';
import { Ceremonies, CEREMONY_SECONDS, isTotpSecret, totpStepOf } from './ceremonies';
import { SecondFactorsRepository } from './second-factors.repository';

type Actor = { id: string; username: string };
const NOT_RIGHT = (what: string) => new AppError(ErrorCode.BadRequest, what);

/**
 * The signed-in user's own second factors (the header's account menu; issue 34): passkeys added and removed,
 * the authenticator app set up with a code and removed, recovery codes renewed. The first second factor
 * takes the recovery codes the gateway made (their hashes); removing the last one is refused while the
 * user's roles need one (MFA_REQUIRED_ROLES). Each change is a security audit line.
 */
@Injectable()
export class AccountSecurity {
  constructor(
    private readonly factors: SecondFactorsRepository,
    private readonly users: UsersRepository,
    private readonly ceremonies: Ceremonies,
    private readonly inbox: SealedInbox,
    private readonly units: UnitOfWork,
    @Inject(USERS_CONFIG) private readonly config: UsersConfig,
  ) {}

  private async userOf(actor: Actor): Promise<UserEntity> {
    const user = await this.users.findById(actor.id);
    if (!user) throw new AppError(ErrorCode.Unauthenticated, SIGNED_OUT);
    return user;
  }

  private required(user: UserEntity): boolean {
    const roles = rolesNeedingSecondFactor(this.config);
    return user.roles.some((r) => roles.includes(r));
  }

  async status(actor: Actor): Promise<AccountSecurityDto> {
    const user = await this.userOf(actor);
    const [passkeys, totp, recoveryCodesLeft] = await Promise.all([
      this.factors.passkeysOf(user.id),
      this.factors.totpOf(user.id),
      this.factors.recoveryCodesLeft(user.id),
    ]);
    return {
      passkeys: passkeys.map((p) => ({
        id: p.id,
        name: p.name,
        createdAt: p.createdAt.toISOString(),
        lastUsedAt: p.lastUsedAt?.toISOString() ?? null,
      })),
      totp: Boolean(totp?.confirmed),
      recoveryCodesLeft,
      required: this.required(user),
    };
  }

  async passkeyOptions(actor: Actor): Promise<{ options: Record<string, unknown> }> {
    const user = await this.userOf(actor);
    const options = await this.ceremonies.registrationOptions(user, await this.factors.passkeysOf(user.id));
    await this.factors.setPasskeyChallenge(user.id, options.challenge as string, CEREMONY_SECONDS);
    return { options };
  }

  async addPasskey(req: RequestOf<typeof Topics.UsersAddPasskey>): Promise<{ recoveryCodesKept: boolean }> {
    const user = await this.userOf(req.actor);
    const challenge = await this.factors.takePasskeyChallenge(user.id);
    if (!challenge) throw NOT_RIGHT('The passkey took too long to create: try again');
    const passkey = await this.ceremonies.verifyRegistration(req.response, challenge);
    if (!passkey) throw NOT_RIGHT('The passkey could not be verified: try again');
    if (await this.factors.passkeyByCredential(passkey.credentialId))
      throw NOT_RIGHT('This passkey is already registered');
    const kept = await this.added(user, req.recoveryCodeHashes, (tx) =>
      this.factors.addPasskey(tx, { userId: user.id, name: req.name, ...passkey }),
    );
    auditSecurityEvent('second-factor.added', {
      username: user.username,
      userId: user.id,
      method: 'passkey',
    });
    return { recoveryCodesKept: kept };
  }

  async removePasskey(actor: Actor, id: string): Promise<{ done: true }> {
    const user = await this.userOf(actor);
    await this.removed(user, async (tx) => {
      if (!(await this.factors.removePasskey(tx, user.id, id)))
        throw new AppError(ErrorCode.NotFound, 'No such passkey');
      return true;
    });
    auditSecurityEvent('second-factor.removed', {
      username: user.username,
      userId: user.id,
      method: 'passkey',
    });
    return { done: true };
  }

  async beginTotp(actor: Actor, sealedSecret: string): Promise<{ done: true }> {
    const user = await this.userOf(actor);
    if (!isTotpSecret(this.inbox.open(sealedSecret, SealContext.TotpSecret)))
      throw NOT_RIGHT('Not an authenticator secret');
    if ((await this.factors.totpOf(user.id))?.confirmed)
      throw NOT_RIGHT('An authenticator app is already set up: remove it first to set up another');
    await this.factors.beginTotp(user.id, sealedSecret);
    return { done: true };
  }

  async confirmTotp(req: RequestOf<typeof Topics.UsersConfirmTotp>): Promise<{ recoveryCodesKept: boolean }> {
    const user = await this.userOf(req.actor);
    const totp = await this.factors.totpOf(user.id);
    if (!totp || totp.confirmed) throw NOT_RIGHT('Set up the authenticator app first');
    const code = this.inbox.open(req.code, SealContext.SecondFactorCode).replace(/\s/g, '');
    const step = totpStepOf(this.inbox.open(totp.sealedSecret, SealContext.TotpSecret), code);
    if (step === undefined) throw NOT_RIGHT('That code is not right: type the code the app shows now');
    const kept = await this.added(user, req.recoveryCodeHashes, async (tx) => {
      if (!(await this.factors.useTotpStep(user.id, step, tx))) throw NOT_RIGHT('That code was used already');
      await this.factors.confirmTotp(tx, user.id);
    });
    auditSecurityEvent('second-factor.added', { username: user.username, userId: user.id, method: 'totp' });
    return { recoveryCodesKept: kept };
  }

  /** Idempotent: afterwards no authenticator app is set up (a setup not confirmed yet is dropped too). */
  async removeTotp(actor: Actor): Promise<{ done: true }> {
    const user = await this.userOf(actor);
    const removed = await this.removed(user, (tx) => this.factors.removeTotp(tx, user.id));
    if (removed)
      auditSecurityEvent('second-factor.removed', {
        username: user.username,
        userId: user.id,
        method: 'totp',
      });
    return { done: true };
  }

  async renewRecoveryCodes(actor: Actor, hashes: string[]): Promise<{ recoveryCodesKept: boolean }> {
    const user = await this.userOf(actor);
    if (!user.hasSecondFactor) throw NOT_RIGHT('Recovery codes come with a passkey or an authenticator app');
    await this.units.run((tx) => this.factors.replaceRecoveryCodes(tx, user.id, hashes));
    auditSecurityEvent('second-factor.recovery-codes-renewed', { username: user.username, userId: user.id });
    return { recoveryCodesKept: true };
  }

  /** Adds a factor; the user's first one also keeps the recovery codes the gateway made. */
  private async added(user: UserEntity, hashes: string[], add: (tx: Tx) => Promise<void>): Promise<boolean> {
    return this.units.run(async (tx) => {
      const had = Boolean((await this.users.findById(user.id, tx))?.hasSecondFactor);
      await add(tx);
      await this.factors.refreshHasSecondFactor(tx, user.id);
      if (!had) await this.factors.replaceRecoveryCodes(tx, user.id, hashes);
      return !had;
    });
  }

  /** Removes a factor (`remove` says whether there was one); not the last one while the roles need one. */
  private async removed(user: UserEntity, remove: (tx: Tx) => Promise<boolean>): Promise<boolean> {
    return this.units.run(async (tx) => {
      if (!(await remove(tx))) return false;
      const has = await this.factors.refreshHasSecondFactor(tx, user.id);
      if (!has && this.required(user)) throw NOT_RIGHT(LAST_REQUIRED_FACTOR);
      return true;
    });
  }
}
