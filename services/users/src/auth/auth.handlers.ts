import { RequestOf, Topics } from '@irp/proto';
import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { AuthService } from './auth.service';

/** Kafka entry points of sign-in and sessions; the rules live in AuthService. */
@Controller()
export class AuthHandlers {
  constructor(private readonly auth: AuthService) {}

  @MessagePattern(Topics.UsersAuthenticate)
  authenticate(@Payload() req: RequestOf<typeof Topics.UsersAuthenticate>) {
    return this.auth.authenticate(req);
  }

  @MessagePattern(Topics.UsersSession)
  session(@Payload() req: RequestOf<typeof Topics.UsersSession>) {
    return this.auth.sessionUser(req.sessionToken);
  }

  @MessagePattern(Topics.UsersRefresh)
  refresh(@Payload() req: RequestOf<typeof Topics.UsersRefresh>) {
    return this.auth.refresh(req);
  }

  @MessagePattern(Topics.UsersLogout)
  logout(@Payload() req: RequestOf<typeof Topics.UsersLogout>) {
    return this.auth.logout(req);
  }
}
