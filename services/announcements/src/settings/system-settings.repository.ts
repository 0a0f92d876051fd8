import type { Tx } from '@irp/platform';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { SystemSettingsEntity } from './system-settings.entity';

/** The one system settings row (id 1); the only place that queries its table. */
@Injectable()
export class SystemSettingsRepository {
  constructor(private readonly dataSource: DataSource) {}

  private get repo() {
    return this.dataSource.getRepository(SystemSettingsEntity);
  }

  /** The row, stored first with `defaults` when there is none yet (two first reads at once store one). */
  async getOrCreate(defaults: () => SystemSettingsEntity): Promise<SystemSettingsEntity> {
    const found = await this.repo.findOne({ where: { id: 1 } });
    if (found) return found;
    await this.repo.createQueryBuilder().insert().values(defaults()).orIgnore().execute();
    return this.repo.findOneOrFail({ where: { id: 1 } });
  }

  /**
   * The row as it is (null before the first read stored it), on the caller's transaction when given; with
   * `lock`, locked for update until that transaction ends.
   */
  async find(tx?: Tx, lock = false): Promise<SystemSettingsEntity | null> {
    return (tx ?? this.dataSource.manager).findOne(SystemSettingsEntity, {
      where: { id: 1 },
      ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
  }

  async update(tx: Tx, values: Partial<SystemSettingsEntity>): Promise<void> {
    await tx.update(SystemSettingsEntity, { id: 1 }, values);
  }
}
