import { Topics } from '@irp/proto';
import { HandleRequest, HandledRequest } from '@irp/platform';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { AuthService } from './auth.service';

/** Kafka entry points of sign-in and sessions; the rules live in AuthService. */
@Controller()
export class AuthHandlers {
  constructor(private readonly auth: AuthService) {}

  @HandleRequest(Topics.UsersAuthenticate)
  authenticate(@Payload() req: HandledRequest<typeof Topics.UsersAuthenticate>) {
    return this.auth.authenticate(req);
  }

  @HandleRequest(Topics.UsersSession)
  session(@Payload() req: HandledRequest<typeof Topics.UsersSession>) {
    return this.auth.sessionUser(req.sessionToken);
  }

  @HandleRequest(Topics.UsersRefresh)
  refresh(@Payload() req: HandledRequest<typeof Topics.UsersRefresh>) {
    return this.auth.refresh(req);
  }

  @HandleRequest(Topics.UsersLogout)
  logout(@Payload() req: HandledRequest<typeof Topics.UsersLogout>) {
    return this.auth.logout(req);
  }
}
