import {
  Actor,
  CompanyDto,
  ErrorCode,
  isAdmin,
  PermissionRowDto,
  RequestOf,
  Topics,
  UserAuditEntryDto,
  UserDetailDto,
  UserListItemDto,
  WRONG_CURRENT_PASSWORD,
} from '@irp/proto';
import { AppError, UnitOfWork } from '@irp/platform';
import { Injectable } from '@nestjs/common';
import { hashPassword, sha256, verifyPassword } from '../auth/secrets';
import { SessionsRepository } from '../auth/sessions.repository';
import { StockProjectionEntity } from '../stocks/stock-projection.entity';
import { StockProjectionService } from '../stocks/stock-projection.repository';
import { checkPassword } from './password-policy/password-policy';
import { UserAuditEntity } from './user-audit.entity';
import { checkStaffChange, DUPLICATE_ROW, givenPassword } from './user-administration-rules';
import { UsersRepository } from './users.repository';
import { checkRoles, toSessionUser, UsersService } from './users.service';

const USER_NOT_FOUND = 'User not found';

const companyOf = (stock: StockProjectionEntity): CompanyDto => ({
  stockId: stock.id,
  combinedTicker: stock.combinedTicker,
  companyName: stock.companyName,
  archived: stock.archived,
});

const auditEntryOf = (row: UserAuditEntity): UserAuditEntryDto => ({
  at: row.at.toISOString(),
  actorId: row.actorId,
  actorUsername: row.actorUsername,
  usernameBefore: row.usernameBefore,
  usernameAfter: row.usernameAfter,
  rolesBefore: row.rolesBefore,
  rolesAfter: row.rolesAfter,
  stockRolesBefore: row.stockRolesBefore,
  stockRolesAfter: row.stockRolesAfter,
  passwordChanged: row.passwordChanged,
});

/** Postgres' unique_violation: two saves raced for one username. */
const isUniqueViolation = (err: unknown) => (err as { code?: string }).code === '23505';

/**
 * The Users screens (issue 21): the list, a user for the editor, a save, the editor's company search and the
 * signed-in user's own password change. The gateway checked EditUsers (or Admin); the staff rules are
 * checked here on the signed actor.
 */
@Injectable()
export class UserAdministration {
  constructor(
    private readonly users: UsersRepository,
    private readonly writer: UsersService,
    private readonly stocks: StockProjectionService,
    private readonly sessions: SessionsRepository,
    private readonly units: UnitOfWork,
  ) {}

  async list(): Promise<UserListItemDto[]> {
    return (await this.users.list()).map(({ id, username }) => ({ id, username }));
  }

  /** The user's permission rows from the projection; the audit trail for an Admin only. */
  async get(actor: Actor, id: string): Promise<UserDetailDto> {
    const user = await this.users.findById(id);
    if (!user) throw new AppError(ErrorCode.NotFound, USER_NOT_FOUND);
    const detail: UserDetailDto = {
      id: user.id,
      username: user.username,
      roles: [...user.roles].sort(),
      permissions: await this.permissionRows(toSessionUser(user).stockRoles),
    };
    if (isAdmin(actor)) detail.audit = (await this.users.auditOf(id)).map(auditEntryOf);
    return detail;
  }

  async searchCompanies(search: string): Promise<CompanyDto[]> {
    return (await this.stocks.search(search)).map(companyOf);
  }

  /** Creates (id null) or updates a user from the editor; its id. */
  async save(req: RequestOf<typeof Topics.UsersSave>): Promise<{ id: string }> {
    const password = givenPassword(req.password);
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
          actor,
        });
        return { id: saved.id };
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw usernameTaken(username);
      throw err;
    }
  }

  /** The signed-in user's own password: the current one required; the session that asks stays signed in. */
  async changeOwnPassword(req: RequestOf<typeof Topics.UsersChangeOwnPassword>): Promise<{ changed: true }> {
    const user = await this.users.findById(req.actor.id);
    if (!user) throw new AppError(ErrorCode.Unauthenticated, 'Not signed in');
    if (!(await verifyPassword(user.passwordHash, req.currentPassword)))
      throw new AppError(ErrorCode.BadRequest, WRONG_CURRENT_PASSWORD);
    checkPassword(req.newPassword, user.username);
    const session = await this.sessions.findLive(sha256(req.sessionToken));
    const passwordHash = await hashPassword(req.newPassword);
    await this.units.run(async (tx) => {
      const before = (await this.users.findById(user.id, tx))!;
      const { roles, stockRoles } = toSessionUser(before);
      await this.writer.write(tx, {
        before,
        username: before.username,
        roles,
        stockRoles,
        passwordHash,
        actor: { id: user.id, username: user.username },
        exceptSessionId: session?.userId === user.id ? session.id : undefined,
      });
    });
    return { changed: true };
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

  /** One row per stock with roles; a stock this service has not heard of shows its id. */
  private async permissionRows(stockRoles: Record<string, string[]>): Promise<PermissionRowDto[]> {
    const known = new Map((await this.stocks.byIds(Object.keys(stockRoles))).map((s) => [s.id, s]));
    return Object.entries(stockRoles)
      .map(([stockId, roles]) => {
        const stock = known.get(stockId);
        return {
          stockId,
          combinedTicker: stock?.combinedTicker ?? stockId,
          companyName: stock?.companyName ?? '',
          archived: stock?.archived ?? false,
          roles,
        };
      })
      .sort((a, b) => a.combinedTicker.localeCompare(b.combinedTicker));
  }
}

const usernameTaken = (username: string) =>
  new AppError(ErrorCode.Conflict, `The username ${username} is already taken`);
