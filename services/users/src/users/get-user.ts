import { Actor, ErrorCode, isAdmin, PermissionRowDto, UserAuditEntryDto, UserDetailDto } from '@irp/proto';
import { AppError } from '@irp/platform';
import { Injectable } from '@nestjs/common';
import { StockProjectionService } from '../stocks/stock-projection.repository';
import { USER_NOT_FOUND } from './user-administration-rules';
import { UserAuditEntity } from './user-audit.entity';
import { toSessionUser } from './user-rules';
import { UsersRepository } from './users.repository';

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

/** A user for the Users editor (issue 21). The gateway checked EditUsers (or Admin). */
@Injectable()
export class GetUser {
  constructor(
    private readonly users: UsersRepository,
    private readonly stocks: StockProjectionService,
  ) {}

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
