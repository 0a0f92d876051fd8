import { ErrorCode, PermissionRowDto, RequestOf, SealContext, Topics } from '@irp/proto';
import { AppError, SealedInbox, UnitOfWork } from '@irp/platform';
import { Injectable } from '@nestjs/common';
import { hashPassword } from '../credentials/secrets';
import { StockProjectionEntity } from '../stocks/stock-projection.entity';
import { StockProjectionService } from '../stocks/stock-projection.repository';
import { checkPassword } from './password-policy/password-policy';
import { checkStaffChange, DUPLICATE_ROW, givenPassword, USER_NOT_FOUND } from './user-administration-rules';
import { checkRoles, toSessionUser } from './user-rules';
import { UsersRepository } from './users.repository';
import { WriteUser } from './write-user';

/** Postgres' unique_violation: two saves raced for one username. */
const isUniqueViolation = (err: unknown) => (err as { code?: string }).code === '23505';

const usernameTaken = (username: string) =>
  new AppError(ErrorCode.Conflict, `The username ${username} is already taken`);

/**
 * The Users editor's save (issue 21). The gateway checked EditUsers (or Admin); the staff rules are checked
 * here on the signed actor.
 */
@Injectable()
export class SaveUser {
  constructor(
    private readonly users: UsersRepository,
    private readonly writer: WriteUser,
    private readonly stocks: StockProjectionService,
    private readonly units: UnitOfWork,
    private readonly inbox: SealedInbox,
  ) {}

  /** Creates (id null) or updates a user from the editor; its id. */
  async save(req: RequestOf<typeof Topics.UsersSave>): Promise<{ id: string }> {
    const password = givenPassword(
      req.password ? this.inbox.open(req.password, SealContext.Password) : undefined,
    );
    const current = req.id ? await this.users.findById(req.id) : null;
    if (req.id && !current) throw new AppError(ErrorCode.NotFound, USER_NOT_FOUND);
    const held = new Set(Object.keys(current ? toSessionUser(current).stockRoles : {}));
    const stockRoles = await this.stockRolesOf(req.permissions, held);
    // The username is editable only when creating (spec section 5).
    const username = current?.username ?? req.username.trim();
    if (!username) throw new AppError(ErrorCode.BadRequest, 'Username is required');
    if (!current && !password)
      throw new AppError(ErrorCode.BadRequest, 'A password is required for a new user');
    const roles = req.roles ?? current?.roles ?? [];
    checkRoles({ roles, stockRoles });
    checkStaffChange(req.actor, current?.roles ?? [], roles);
    if (password) checkPassword(password, username);
    const passwordHash = password ? await hashPassword(password) : undefined;
    try {
      return await this.units.run(async (tx) => {
        const before = req.id ? await this.users.findById(req.id, tx) : null;
        if (req.id && !before) throw new AppError(ErrorCode.NotFound, USER_NOT_FOUND);
        if (!before && (await this.users.findByUsername(username, tx))) throw usernameTaken(username);
        const actor = { id: req.actor.id, username: req.actor.username };
        const saved = await this.writer.write(tx, {
          before,
          username,
          roles,
          stockRoles,
          passwordHash,
          // A password someone else sets is one-time; the user's own (an editor editing themselves) is not.
          mustChangePassword: passwordHash ? req.actor.id !== before?.id : undefined,
          actor,
        });
        return { id: saved.id };
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw usernameTaken(username);
      throw err;
    }
  }

  /**
   * The rows' stock ids, each stock once: a row's `stockId` when this service knows the stock or the user
   * already holds roles on it (a row read from GET whose stock the projection has not heard of yet keeps
   * saving), else the stock of its combinedTicker; roles on an unknown stock cannot be granted.
   */
  private async stockRolesOf(
    rows: readonly PermissionRowDto[],
    held: ReadonlySet<string>,
  ): Promise<Record<string, string[]>> {
    const stockRoles: Record<string, string[]> = {};
    for (const row of rows) {
      const id =
        row.stockId && (held.has(row.stockId) || (await this.stocks.byId(row.stockId)))
          ? row.stockId
          : (await this.stockNamed(row)).id;
      if (stockRoles[id]) throw new AppError(ErrorCode.BadRequest, DUPLICATE_ROW);
      stockRoles[id] = [...new Set(row.roles)];
    }
    return stockRoles;
  }

  private async stockNamed(row: PermissionRowDto): Promise<StockProjectionEntity> {
    try {
      return await this.stocks.byCombinedTicker(row.combinedTicker);
    } catch (err) {
      if (err instanceof AppError && err.code === ErrorCode.NotFound)
        throw new AppError(ErrorCode.BadRequest, `Unknown company: ${row.combinedTicker}`);
      throw err;
    }
  }
}
