import { ErrorCode, RequestOf, SealContext, Topics, WRONG_CURRENT_PASSWORD } from '@irp/proto';
import { AppError, SealedInbox, UnitOfWork } from '@irp/platform';
import { Injectable } from '@nestjs/common';
import { hashPassword, verifyPassword } from '../credentials/secrets';
import { SIGNED_OUT } from '../credentials/session-rules';
import { SessionsRepository } from '../credentials/sessions.repository';
import { checkPassword } from './password-policy/password-policy';
import { toSessionUser } from './user-rules';
import { UsersRepository } from './users.repository';
import { WriteUser } from './write-user';

/** The signed-in user's own password change (issue 21), held to the password policy. */
@Injectable()
export class ChangeOwnPassword {
  constructor(
    private readonly users: UsersRepository,
    private readonly writer: WriteUser,
    private readonly sessions: SessionsRepository,
    private readonly units: UnitOfWork,
    private readonly inbox: SealedInbox,
  ) {}

  /** The current password required; the session that asks stays signed in. */
  async change(req: RequestOf<typeof Topics.UsersChangeOwnPassword>): Promise<{ changed: true }> {
    const user = await this.users.findById(req.actor.id);
    if (!user) throw new AppError(ErrorCode.Unauthenticated, SIGNED_OUT);
    if (
      !(await verifyPassword(user.passwordHash, this.inbox.open(req.currentPassword, SealContext.Password)))
    )
      throw new AppError(ErrorCode.BadRequest, WRONG_CURRENT_PASSWORD);
    const newPassword = this.inbox.open(req.newPassword, SealContext.Password);
    checkPassword(newPassword, user.username);
    const session = await this.sessions.findLive(req.sessionHash);
    const passwordHash = await hashPassword(newPassword);
    await this.units.run(async (tx) => {
      const before = (await this.users.findById(user.id, tx))!;
      const { roles, stockRoles } = toSessionUser(before);
      await this.writer.write(tx, {
        before,
        username: before.username,
        roles,
        stockRoles,
        passwordHash,
        mustChangePassword: false,
        actor: { id: user.id, username: user.username },
        exceptSessionId: session?.userId === user.id ? session.id : undefined,
      });
    });
    return { changed: true };
  }
}
