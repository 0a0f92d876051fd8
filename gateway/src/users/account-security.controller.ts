import {
  AddPasskeyBodySchema,
  normalizeRecoveryCode,
  routes,
  SecondFactorCodeBodySchema,
  SessionUser,
  Topics,
} from '@irp/proto';
import { tokenHash } from '@irp/platform';
import { Body, Controller, Param, Req } from '@nestjs/common';
import { randomInt } from 'node:crypto';
import type { Request } from 'express';
import { Secret, TOTP } from 'otpauth';
import type { z } from 'zod';
import { BusSeal } from '../auth/bus-seal';
import { CurrentUser } from '../auth/decorators';
import { AuthedRequest, SessionService } from '../auth/session.service';
import { ServicesClient } from '../kafka/services.client';
import { Route } from '../routing/route';

/** The issuer an authenticator app lists the portal's codes under. */
const TOTP_ISSUER = 'IR Portal';
const RECOVERY_CODES = 10;
/** Crockford's base32 letters (no I, L, O, U): easy to read off and type; 10 of them are 50 bits. */
const RECOVERY_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** New recovery codes as shown (XXXXX-XXXXX), and the hashes of their typed form for the users service. */
export function newRecoveryCodes(): { codes: string[]; hashes: string[] } {
  const codes = Array.from({ length: RECOVERY_CODES }, () => {
    const chars = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]);
    return `${chars.slice(0, 5).join('')}-${chars.slice(5).join('')}`;
  });
  return { codes, hashes: codes.map((c) => tokenHash(normalizeRecoveryCode(c))) };
}

/**
 * The signed-in user's own second factors (issue 34; docs/api/users.md): passkeys, the authenticator app and
 * recovery codes. Secrets are made here and only sealed or hashed leave the gateway: the authenticator
 * secret (sealed for the users service, shown to the user once) and the recovery codes (hashes; shown once,
 * when the users service kept them).
 */
@Controller()
export class AccountSecurityController {
  constructor(
    private readonly services: ServicesClient,
    private readonly seal: BusSeal,
    private readonly sessions: SessionService,
  ) {}

  /** The cached session user may still say a second factor is missing: the next call reads it afresh. */
  private changed(req: Request & AuthedRequest) {
    this.sessions.forget(req.sessionToken);
  }

  @Route(routes.users.accountSecurity)
  status(@CurrentUser() actor: SessionUser) {
    return this.services.request(Topics.UsersAccountSecurity, { actor });
  }

  @Route(routes.users.passkeyOptions)
  passkeyOptions(@CurrentUser() actor: SessionUser) {
    return this.services.request(Topics.UsersPasskeyOptions, { actor });
  }

  @Route(routes.users.addPasskey)
  async addPasskey(
    @CurrentUser() actor: SessionUser,
    @Req() req: Request & AuthedRequest,
    @Body() body: z.output<typeof AddPasskeyBodySchema>,
  ) {
    const recovery = newRecoveryCodes();
    const { recoveryCodesKept } = await this.services.request(Topics.UsersAddPasskey, {
      actor,
      name: body.name,
      response: body.response,
      recoveryCodeHashes: recovery.hashes,
    });
    this.changed(req);
    return { success: true as const, ...(recoveryCodesKept ? { recoveryCodes: recovery.codes } : {}) };
  }

  @Route(routes.users.removePasskey)
  async removePasskey(
    @CurrentUser() actor: SessionUser,
    @Req() req: Request & AuthedRequest,
    @Param('id') id: string,
  ) {
    await this.services.request(Topics.UsersRemovePasskey, { actor, id });
    this.changed(req);
    return { success: true as const };
  }

  @Route(routes.users.beginTotp)
  async beginTotp(@CurrentUser() actor: SessionUser) {
    const secret = new Secret({ size: 20 });
    await this.services.request(Topics.UsersBeginTotp, {
      actor,
      secret: this.seal.totpSecret(secret.base32),
    });
    const uri = new TOTP({ issuer: TOTP_ISSUER, label: actor.username, secret }).toString();
    return { secret: secret.base32, uri };
  }

  @Route(routes.users.confirmTotp)
  async confirmTotp(
    @CurrentUser() actor: SessionUser,
    @Req() req: Request & AuthedRequest,
    @Body() body: z.output<typeof SecondFactorCodeBodySchema>,
  ) {
    const recovery = newRecoveryCodes();
    const { recoveryCodesKept } = await this.services.request(Topics.UsersConfirmTotp, {
      actor,
      code: this.seal.secondFactorCode(body.code),
      recoveryCodeHashes: recovery.hashes,
    });
    this.changed(req);
    return { success: true as const, ...(recoveryCodesKept ? { recoveryCodes: recovery.codes } : {}) };
  }

  @Route(routes.users.removeTotp)
  async removeTotp(@CurrentUser() actor: SessionUser, @Req() req: Request & AuthedRequest) {
    await this.services.request(Topics.UsersRemoveTotp, { actor });
    this.changed(req);
    return { success: true as const };
  }

  @Route(routes.users.renewRecoveryCodes)
  async renewRecoveryCodes(@CurrentUser() actor: SessionUser) {
    const recovery = newRecoveryCodes();
    await this.services.request(Topics.UsersRenewRecoveryCodes, {
      actor,
      recoveryCodeHashes: recovery.hashes,
    });
    return { success: true as const, recoveryCodes: recovery.codes };
  }
}
