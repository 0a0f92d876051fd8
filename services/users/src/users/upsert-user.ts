import { SessionUser } from '@irp/proto';
import { AppError, UnitOfWork } from '@irp/platform';
import { Injectable } from '@nestjs/common';
import { hashPassword, verifyPassword } from '../credentials/secrets';
import { checkRoles, toSessionUser } from './user-rules';
import { UsersRepository } from './users.repository';
import { WriteUser } from './write-user';

export interface UserInput {
  username: string;
  /** Undefined leaves the password unchanged (spec: blank password leaves it unchanged). */
  password?: string;
  roles: string[];
  stockRoles: Record<string, string[]>;
}

/**
 * Creates or updates a user by username: the demo seed and test fixtures (the Users editor saves through
 * SaveUser), without the password policy: see password-policy.ts.
 */
@Injectable()
export class UpsertUser {
  constructor(
    private readonly users: UsersRepository,
    private readonly units: UnitOfWork,
    private readonly writer: WriteUser,
  ) {}

  /** `exceptSessionId`: the session that stays signed in when the change ends the user's sessions. */
  async upsert(input: UserInput, options: { exceptSessionId?: string } = {}): Promise<SessionUser> {
    const username = input.username.trim();
    if (!username) throw new AppError('BAD_REQUEST', 'Username is required');
    checkRoles(input);
    const before = await this.users.findByUsername(username);
    // The same password given again (the seed does, every run) is no change: the hash is not replaced.
    const samePassword =
      !!before && !!input.password && (await verifyPassword(before.passwordHash, input.password));
    const passwordHash = input.password && !samePassword ? await hashPassword(input.password) : undefined;
    return this.units.run(async (tx) => {
      const existing = await this.users.findByUsername(username, tx);
      const fresh = await this.writer.write(tx, {
        ...input,
        ...options,
        username,
        before: existing,
        passwordHash,
      });
      return toSessionUser(fresh);
    });
  }
}
