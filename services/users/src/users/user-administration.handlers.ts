import { HandleRequest, HandledRequest, requireGlobalRoleOf } from '@irp/platform';
import { GlobalRole, Topics } from '@irp/proto';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { ChangeOwnPassword } from './change-own-password';
import { GetUser } from './get-user';
import { ListUsers } from './list-users';
import { SaveUser } from './save-user';
import { SearchCompanies } from './search-companies';

/** Kafka entry points of the Users screens and the own password change; each calls its use case (a file of the same name). */
@Controller()
export class UserAdministrationHandlers {
  constructor(
    private readonly listing: ListUsers,
    private readonly reading: GetUser,
    private readonly saving: SaveUser,
    private readonly companies: SearchCompanies,
    private readonly passwords: ChangeOwnPassword,
  ) {}

  @HandleRequest(Topics.UsersList)
  async list() {
    return { users: await this.listing.list() };
  }

  @HandleRequest(Topics.UsersGet)
  get(@Payload() req: HandledRequest<typeof Topics.UsersGet>) {
    return this.reading.get(req.actor, req.id);
  }

  @HandleRequest(Topics.UsersSave)
  save(@Payload() req: HandledRequest<typeof Topics.UsersSave>) {
    // The route guard's role, re-checked on the signed actor (issue 34); the staff rules follow in SaveUser.
    requireGlobalRoleOf(req.actor, [GlobalRole.EditUsers], 'change users');
    return this.saving.save(req);
  }

  @HandleRequest(Topics.UsersSearchCompanies)
  async searchCompanies(@Payload() req: HandledRequest<typeof Topics.UsersSearchCompanies>) {
    return { companies: await this.companies.search(req.search) };
  }

  @HandleRequest(Topics.UsersChangeOwnPassword)
  changeOwnPassword(@Payload() req: HandledRequest<typeof Topics.UsersChangeOwnPassword>) {
    return this.passwords.change(req);
  }
}
