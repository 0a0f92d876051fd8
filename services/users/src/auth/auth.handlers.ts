import { Topics } from '@irp/proto';
import { HandleRequest, HandledRequest } from '@irp/platform';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { CheckSession } from './check-session';
import { RefreshSession } from './refresh-session';
import { SignIn } from './sign-in';
import { SignOut } from './sign-out';

/** Kafka entry points of sign-in and sessions; each calls its use case (a file of the same name). */
@Controller()
export class AuthHandlers {
  constructor(
    private readonly signing: SignIn,
    private readonly checking: CheckSession,
    private readonly refreshing: RefreshSession,
    private readonly signingOut: SignOut,
  ) {}

  @HandleRequest(Topics.UsersAuthenticate)
  authenticate(@Payload() req: HandledRequest<typeof Topics.UsersAuthenticate>) {
    return this.signing.signIn(req);
  }

  /** The sign-in's second step (issue 34): a passkey or a code for the ticket of a right password. */
  @HandleRequest(Topics.UsersSecondFactor)
  secondFactor(@Payload() req: HandledRequest<typeof Topics.UsersSecondFactor>) {
    return this.signing.finish(req);
  }

  @HandleRequest(Topics.UsersSession)
  session(@Payload() req: HandledRequest<typeof Topics.UsersSession>) {
    return this.checking.check(req.sessionHash);
  }

  @HandleRequest(Topics.UsersRefresh)
  refresh(@Payload() req: HandledRequest<typeof Topics.UsersRefresh>) {
    return this.refreshing.refresh(req);
  }

  @HandleRequest(Topics.UsersLogout)
  logout(@Payload() req: HandledRequest<typeof Topics.UsersLogout>) {
    return this.signingOut.signOut(req);
  }
}
