import { HandleRequest, HandledRequest } from '@irp/platform';
import { Topics } from '@irp/proto';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { UserAdministration } from './user-administration.service';

/** Kafka entry points of the Users screens and the own password change; the rules live in UserAdministration. */
@Controller()
export class UserAdministrationHandlers {
  constructor(private readonly admin: UserAdministration) {}

  @HandleRequest(Topics.UsersList)
  async list() {
    return { users: await this.admin.list() };
  }

  @HandleRequest(Topics.UsersGet)
  get(@Payload() req: HandledRequest<typeof Topics.UsersGet>) {
    return this.admin.get(req.actor, req.id);
  }

  @HandleRequest(Topics.UsersSave)
  save(@Payload() req: HandledRequest<typeof Topics.UsersSave>) {
    return this.admin.save(req);
  }

  @HandleRequest(Topics.UsersSearchCompanies)
  async searchCompanies(@Payload() req: HandledRequest<typeof Topics.UsersSearchCompanies>) {
    return { companies: await this.admin.searchCompanies(req.search) };
  }

  @HandleRequest(Topics.UsersChangeOwnPassword)
  changeOwnPassword(@Payload() req: HandledRequest<typeof Topics.UsersChangeOwnPassword>) {
    return this.admin.changeOwnPassword(req);
  }
}
