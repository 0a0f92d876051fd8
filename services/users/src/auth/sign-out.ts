import { RequestOf, Topics } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { SessionsRepository } from '../credentials/sessions.repository';

/** Sign-out: the session of either token's hash is revoked (a browser may hold only one of them). */
@Injectable()
export class SignOut {
  constructor(private readonly sessions: SessionsRepository) {}

  async signOut(req: RequestOf<typeof Topics.UsersLogout>): Promise<{ loggedOut: boolean }> {
    const loggedOut = await this.sessions.revoke({
      tokenHash: req.sessionHash,
      refreshHash: req.refreshHash,
    });
    return { loggedOut };
  }
}
