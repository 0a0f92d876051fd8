import { Topics } from '@irp/proto';
import { HandleRequest, HandledRequest } from '@irp/platform';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { AccountSecurity } from './account-security';
import { SecondFactorSignIn } from './second-factor-sign-in';

/**
 * Kafka entry points of second factors (issue 34): the sign-in's passkey options and the user's own factors
 * (the second step's session is the auth feature's: AuthHandlers).
 */
@Controller()
export class SecondFactorHandlers {
  constructor(
    private readonly secondStep: SecondFactorSignIn,
    private readonly account: AccountSecurity,
  ) {}

  @HandleRequest(Topics.UsersSignInPasskeyOptions)
  signInPasskeyOptions(@Payload() req: HandledRequest<typeof Topics.UsersSignInPasskeyOptions>) {
    return this.secondStep.passkeyOptions(req.ticketHash);
  }

  @HandleRequest(Topics.UsersAccountSecurity)
  status(@Payload() req: HandledRequest<typeof Topics.UsersAccountSecurity>) {
    return this.account.status(req.actor);
  }

  @HandleRequest(Topics.UsersPasskeyOptions)
  passkeyOptions(@Payload() req: HandledRequest<typeof Topics.UsersPasskeyOptions>) {
    return this.account.passkeyOptions(req.actor);
  }

  @HandleRequest(Topics.UsersAddPasskey)
  addPasskey(@Payload() req: HandledRequest<typeof Topics.UsersAddPasskey>) {
    return this.account.addPasskey(req);
  }

  @HandleRequest(Topics.UsersRemovePasskey)
  removePasskey(@Payload() req: HandledRequest<typeof Topics.UsersRemovePasskey>) {
    return this.account.removePasskey(req.actor, req.id);
  }

  @HandleRequest(Topics.UsersBeginTotp)
  beginTotp(@Payload() req: HandledRequest<typeof Topics.UsersBeginTotp>) {
    return this.account.beginTotp(req.actor, req.secret);
  }

  @HandleRequest(Topics.UsersConfirmTotp)
  confirmTotp(@Payload() req: HandledRequest<typeof Topics.UsersConfirmTotp>) {
    return this.account.confirmTotp(req);
  }

  @HandleRequest(Topics.UsersRemoveTotp)
  removeTotp(@Payload() req: HandledRequest<typeof Topics.UsersRemoveTotp>) {
    return this.account.removeTotp(req.actor);
  }

  @HandleRequest(Topics.UsersRenewRecoveryCodes)
  renewRecoveryCodes(@Payload() req: HandledRequest<typeof Topics.UsersRenewRecoveryCodes>) {
    return this.account.renewRecoveryCodes(req.actor, req.recoveryCodeHashes);
  }
}
