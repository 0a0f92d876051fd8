import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { Inject, Injectable } from '@nestjs/common';
import { Secret, TOTP } from 'otpauth';
import { USERS_CONFIG, UsersConfig } from '../config';
import type { StoredPasskey } from './second-factors.repository';

/** How long a browser has for a passkey ceremony (the options' timeout and the challenge's life). */
export const CEREMONY_SECONDS = 300;
/** TOTP as authenticator apps make it (RFC 6238): SHA-1, 6 digits, 30 s; one step either side accepted. */
const TOTP_PERIOD = 30;

type Json = Record<string, unknown>;

/** A verified new passkey: what is stored of it. */
export interface NewPasskey {
  credentialId: string;
  publicKey: Buffer;
  counter: number;
  transports: string[];
}

/**
 * The WebAuthn ceremonies (SimpleWebAuthn) for this portal's relying party (WEBAUTHN_RP_ID, WEBAUTHN_ORIGINS),
 * and TOTP codes (otpauth). A second factor after the password: user presence is required, user
 * verification preferred, attestation none (any authenticator the user trusts).
 */
@Injectable()
export class Ceremonies {
  private readonly origins: string[];

  constructor(@Inject(USERS_CONFIG) private readonly config: UsersConfig) {
    this.origins = config.WEBAUTHN_ORIGINS.split(',').map((o) => o.trim());
  }

  async registrationOptions(
    user: { id: string; username: string },
    existing: StoredPasskey[],
  ): Promise<Json> {
    return (await generateRegistrationOptions({
      rpName: this.config.WEBAUTHN_RP_NAME,
      rpID: this.config.WEBAUTHN_RP_ID,
      userName: user.username,
      userID: new TextEncoder().encode(user.id),
      attestationType: 'none',
      timeout: CEREMONY_SECONDS * 1000,
      excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: p.transports })),
      authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
    })) as unknown as Json;
  }

  /** The new passkey, or undefined when the response does not verify (wrong challenge, origin, RP). */
  async verifyRegistration(response: Json, challenge: string): Promise<NewPasskey | undefined> {
    try {
      const result = await verifyRegistrationResponse({
        response: response as unknown as RegistrationResponseJSON,
        expectedChallenge: challenge,
        expectedOrigin: this.origins,
        expectedRPID: this.config.WEBAUTHN_RP_ID,
        requireUserVerification: false,
      });
      if (!result.verified) return undefined;
      const { credential } = result.registrationInfo;
      return {
        credentialId: credential.id,
        publicKey: Buffer.from(credential.publicKey),
        counter: credential.counter,
        transports: credential.transports ?? [],
      };
    } catch {
      return undefined;
    }
  }

  async authenticationOptions(passkeys: StoredPasskey[]): Promise<Json> {
    return (await generateAuthenticationOptions({
      rpID: this.config.WEBAUTHN_RP_ID,
      timeout: CEREMONY_SECONDS * 1000,
      userVerification: 'preferred',
      allowCredentials: passkeys.map((p) => ({ id: p.credentialId, transports: p.transports })),
    })) as unknown as Json;
  }

  /** The assertion's new signature counter, or undefined when it does not verify. */
  async verifyAuthentication(
    response: Json,
    challenge: string,
    passkey: StoredPasskey,
  ): Promise<number | undefined> {
    try {
      const result = await verifyAuthenticationResponse({
        response: response as unknown as AuthenticationResponseJSON,
        expectedChallenge: challenge,
        expectedOrigin: this.origins,
        expectedRPID: this.config.WEBAUTHN_RP_ID,
        credential: {
          id: passkey.credentialId,
          publicKey: new Uint8Array(passkey.publicKey),
          counter: passkey.counter,
          transports: passkey.transports,
        },
        requireUserVerification: false,
      });
      return result.verified ? result.authenticationInfo.newCounter : undefined;
    } catch {
      return undefined;
    }
  }
}

/** Whether a base32 string is a TOTP secret of at least 128 bits (what the gateway makes is 160). */
export function isTotpSecret(secret: string): boolean {
  try {
    return Secret.fromBase32(secret).bytes.length >= 16;
  } catch {
    return false;
  }
}

/** The time step a 6-digit code is good for (this step or one either side), or undefined. */
export function totpStepOf(secret: string, code: string, now = Date.now()): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  const totp = new TOTP({
    secret: Secret.fromBase32(secret),
    digits: 6,
    period: TOTP_PERIOD,
    algorithm: 'SHA1',
  });
  const delta = totp.validate({ token: code, timestamp: now, window: 1 });
  return delta === null ? undefined : Math.floor(now / 1000 / TOTP_PERIOD) + delta;
}
