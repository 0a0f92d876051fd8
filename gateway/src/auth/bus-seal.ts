import { isKeptApiKey, SealContext } from '@irp/proto';
import { sealFor } from '@irp/platform';
import { Inject, Injectable } from '@nestjs/common';
import { GATEWAY_CONFIG, GatewayConfig } from '../config';

/**
 * What a user types that is a secret leaves the gateway sealed for the one service that uses it (issue 34):
 * passwords for users, provider API keys for email-marketing. The gateway holds only the public halves.
 */
@Injectable()
export class BusSeal {
  constructor(@Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig) {}

  password(plain: string): string {
    return sealFor(this.config.sealKeys.users, SealContext.Password, plain);
  }

  /** An authenticator app's secret, made here, for the users service to keep (issue 34). */
  totpSecret(plain: string): string {
    return sealFor(this.config.sealKeys.users, SealContext.TotpSecret, plain);
  }

  /** An authenticator or recovery code as typed. */
  secondFactorCode(plain: string): string {
    return sealFor(this.config.sealKeys.users, SealContext.SecondFactorCode, plain);
  }

  /** A provider API key as typed: blank or the mask (the stored key) pass as they are, any other is sealed. */
  providerKey(typed: string): string;
  providerKey(typed: string | undefined): string | undefined;
  providerKey(typed: string | undefined): string | undefined {
    if (typed === undefined || isKeptApiKey(typed)) return typed;
    return sealFor(this.config.sealKeys['email-marketing'], SealContext.ProviderKey, typed.trim());
  }
}
