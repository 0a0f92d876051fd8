import { Tx } from '@irp/platform';
import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { SessionEntity } from '../credentials/session.entity';
import { StockRoleEntity } from './stock-role.entity';
import { UserAuditEntity } from './user-audit.entity';
import { UserEntity } from './user.entity';

/** An audit row's fields, without those the database fills in. */
export type NewUserAudit = Omit<UserAuditEntity, 'id' | 'at'>;

/**
 * The users, their per-stock roles and their audit trail (one aggregate); the only place that queries
 * their tables.
 */
@Injectable()
export class UsersRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Usernames are unique whatever their case. */
  findByUsername(username: string, tx: EntityManager = this.dataSource.manager): Promise<UserEntity | null> {
    return tx
      .getRepository(UserEntity)
      .createQueryBuilder('u')
      .leftJoinAndSelect('u.stockRoles', 's')
      .where('lower(u.username) = lower(:username)', { username: username.trim() })
      .getOne();
  }

  /**
   * One query: `findOne` with a relation takes one row, so TypeORM first selects the distinct id and then
   * the rows, two round trips on every session check of the gateway's (bench/README.md, auth-roundtrip).
   */
  findById(id: string, tx: EntityManager = this.dataSource.manager): Promise<UserEntity | null> {
    return tx
      .getRepository(UserEntity)
      .createQueryBuilder('u')
      .leftJoinAndSelect('u.stockRoles', 's')
      .where('u.id = :id', { id })
      .getOne();
  }

  /**
   * The user of a live (unrevoked) session, by its token's hash, with the session and the per-stock roles, in
   * one query: the gateway's session check, the hottest read of all, had been two round trips (the session,
   * then its user; bench/README.md, auth-roundtrip). A session whose user is gone is none.
   */
  async findBySessionToken(tokenHash: string): Promise<{ session: SessionEntity; user: UserEntity } | null> {
    const user = (await this.dataSource
      .getRepository(UserEntity)
      .createQueryBuilder('u')
      .innerJoinAndMapOne('u.session', SessionEntity, 'session', 'session.user_id = u.id')
      .leftJoinAndSelect('u.stockRoles', 's')
      .where('session.token_hash = :tokenHash AND session.revoked_at IS NULL', { tokenHash })
      .getOne()) as (UserEntity & { session: SessionEntity }) | null;
    return user && { session: user.session, user };
  }

  /** A new user's id. */
  async insert(
    tx: Tx,
    user: Pick<UserEntity, 'username' | 'passwordHash' | 'roles'> & { mustChangePassword?: boolean },
  ): Promise<string> {
    const inserted = await tx.insert(UserEntity, user);
    return (inserted.identifiers[0] as { id: string }).id;
  }

  /**
   * New global roles (and a new hash when one is given, one-time or not); the per-stock roles are replaced
   * after.
   */
  async update(
    tx: Tx,
    id: string,
    change: { roles: string[]; passwordHash?: string; mustChangePassword?: boolean },
  ): Promise<void> {
    await tx.update(UserEntity, id, {
      roles: change.roles,
      ...(change.passwordHash ? { passwordHash: change.passwordHash } : {}),
      ...(change.mustChangePassword !== undefined ? { mustChangePassword: change.mustChangePassword } : {}),
      updatedAt: new Date(),
    });
  }

  /** Replaces a user's per-stock roles; a stock without roles has no row. */
  async replaceStockRoles(tx: Tx, userId: string, stockRoles: Record<string, string[]>): Promise<void> {
    await tx.delete(StockRoleEntity, { userId });
    const rows = Object.entries(stockRoles)
      .filter(([, roles]) => roles.length)
      .map(([stockId, roles]) => ({ userId, stockId, roles: [...new Set(roles)] }));
    if (rows.length) await tx.insert(StockRoleEntity, rows);
  }

  /** Every user, by username (the Users list). */
  list(): Promise<Array<Pick<UserEntity, 'id' | 'username'>>> {
    return this.dataSource
      .getRepository(UserEntity)
      .createQueryBuilder('u')
      .select(['u.id', 'u.username'])
      .orderBy('lower(u.username)')
      .getMany();
  }

  async addAudit(tx: Tx, entry: NewUserAudit): Promise<void> {
    await tx.insert(UserAuditEntity, entry);
  }

  /** A user's audit trail, newest first. */
  auditOf(userId: string): Promise<UserAuditEntity[]> {
    return this.dataSource
      .getRepository(UserAuditEntity)
      .find({ where: { userId }, order: { at: 'DESC', id: 'DESC' } });
  }
}
