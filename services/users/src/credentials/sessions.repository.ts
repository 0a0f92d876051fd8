import { Tx } from '@irp/platform';
import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, IsNull } from 'typeorm';
import { SessionEntity } from './session.entity';

/** A session's stored fields, without those the database fills in. */
export type NewSession = Pick<
  SessionEntity,
  | 'userId'
  | 'tokenHash'
  | 'expiresAt'
  | 'refreshHash'
  | 'refreshExpiresAt'
  | 'absoluteExpiresAt'
  | 'userAgent'
  | 'ip'
>;

/** Sessions and their refresh tokens (stored as hashes); the only place that queries their table. */
@Injectable()
export class SessionsRepository {
  constructor(private readonly dataSource: DataSource) {}

  private repo(tx: EntityManager = this.dataSource.manager) {
    return tx.getRepository(SessionEntity);
  }

  async insert(session: NewSession): Promise<void> {
    await this.repo().insert(session);
  }

  /** The unrevoked session of a session token's hash. */
  findLive(tokenHash: string): Promise<SessionEntity | null> {
    return this.repo().findOne({ where: { tokenHash, revokedAt: IsNull() } });
  }

  async touch(id: string): Promise<void> {
    await this.repo().update(id, { lastSeenAt: new Date() });
  }

  /** Revokes the session whose previous (already rotated) refresh token has this hash; was there one? */
  async revokeByPreviousRefresh(refreshHash: string): Promise<boolean> {
    const reused = await this.repo().update(
      { previousRefreshHash: refreshHash, revokedAt: IsNull() },
      { revokedAt: new Date() },
    );
    return Boolean(reused.affected);
  }

  /** The unrevoked session of a refresh token's hash, locked until the transaction ends. */
  lockByRefresh(tx: Tx, refreshHash: string): Promise<SessionEntity | null> {
    return this.repo(tx)
      .createQueryBuilder('s')
      .setLock('pessimistic_write')
      .where('s.refresh_hash = :hash AND s.revoked_at IS NULL', { hash: refreshHash })
      .getOne();
  }

  async update(tx: Tx, id: string, change: Partial<SessionEntity>): Promise<void> {
    await this.repo(tx).update(id, change);
  }

  /**
   * Ends every live session of a user (a password or role change), but the one of `exceptSessionId` (the
   * session that made the change, when the user changed their own); how many it ended.
   */
  async revokeAllOf(tx: Tx, userId: string, exceptSessionId?: string): Promise<number> {
    const query = this.repo(tx)
      .createQueryBuilder()
      .update()
      .set({ revokedAt: () => 'now()' })
      .where('revoked_at IS NULL AND user_id = :userId', { userId });
    if (exceptSessionId) query.andWhere('id <> :exceptSessionId', { exceptSessionId });
    return (await query.execute()).affected ?? 0;
  }

  /** Revokes the unrevoked sessions of either hash; did it revoke one? */
  async revoke(hashes: { tokenHash?: string; refreshHash?: string }): Promise<boolean> {
    const clauses: string[] = [];
    const params: Record<string, string> = {};
    if (hashes.tokenHash) {
      clauses.push('token_hash = :t');
      params.t = hashes.tokenHash;
    }
    if (hashes.refreshHash) {
      clauses.push('refresh_hash = :r');
      params.r = hashes.refreshHash;
    }
    if (!clauses.length) return false;
    const result = await this.repo()
      .createQueryBuilder()
      .update()
      .set({ revokedAt: () => 'now()' })
      .where('revoked_at IS NULL')
      .andWhere(`(${clauses.join(' OR ')})`, params)
      .execute();
    return (result.affected ?? 0) > 0;
  }
}
