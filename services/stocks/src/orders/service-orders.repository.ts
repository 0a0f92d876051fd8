import { SecretBox, Tx } from '@irp/platform';
import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, In } from 'typeorm';
import { ServiceOptionGroupEntity } from './service-option-group.entity';
import { ServiceOptionEntity } from './service-option.entity';
import { ServiceOrderEntity } from './service-order.entity';

export type NewServiceOrder = Omit<ServiceOrderEntity, 'id' | 'timestamp' | 'stockId' | 'createdAt'> & {
  timestamp?: Date;
};

/** An option as it is stored (price in cents); its id kept when given. */
export interface NewServiceOption {
  id?: string | null;
  name: string;
  priceCents: number;
  lineItems: string[];
  isDefault: boolean;
}

/** Service orders, their option groups and options; the only place that queries their tables. */
@Injectable()
export class ServiceOrdersRepository {
  constructor(
    private readonly dataSource: DataSource,
    /** Seals the email-marketing API key an order carries (STOCKS_SECRETS_KEY): never stored in clear. */
    private readonly box: SecretBox,
  ) {}

  /** The order as the service reads it: its email-marketing key opened. */
  private opened(order: ServiceOrderEntity): ServiceOrderEntity;
  private opened(order: ServiceOrderEntity | null): ServiceOrderEntity | null;
  private opened(order: ServiceOrderEntity | null): ServiceOrderEntity | null {
    if (!order?.emailMarketing?.apiKey) return order;
    return {
      ...order,
      emailMarketing: { ...order.emailMarketing, apiKey: this.box.open(order.emailMarketing.apiKey) },
    };
  }

  private orders(tx: EntityManager = this.dataSource.manager) {
    return tx.getRepository(ServiceOrderEntity);
  }

  /** The options of a group, in card order. */
  optionsOf(groupId: string, tx?: Tx): Promise<ServiceOptionEntity[]> {
    return (tx ?? this.dataSource.manager)
      .getRepository(ServiceOptionEntity)
      .find({ where: { groupId }, order: { position: 'ASC' } });
  }

  /** Every option of these groups, in card order. */
  optionsOfGroups(groupIds: string[], tx?: Tx): Promise<ServiceOptionEntity[]> {
    if (!groupIds.length) return Promise.resolve([]);
    return (tx ?? this.dataSource.manager)
      .getRepository(ServiceOptionEntity)
      .find({ where: { groupId: In(groupIds) }, order: { groupId: 'ASC', position: 'ASC' } });
  }

  /** Every group: the default first, then active ones by name, archived ones last. */
  groups(tx?: Tx): Promise<ServiceOptionGroupEntity[]> {
    return (tx ?? this.dataSource.manager)
      .getRepository(ServiceOptionGroupEntity)
      .createQueryBuilder('g')
      .orderBy('g.is_default', 'DESC')
      .addOrderBy('g.archived_at IS NOT NULL', 'ASC')
      .addOrderBy('lower(g.name)', 'ASC')
      .addOrderBy('g.id', 'ASC')
      .getMany();
  }

  group(id: string, tx?: Tx): Promise<ServiceOptionGroupEntity | null> {
    return (tx ?? this.dataSource.manager).getRepository(ServiceOptionGroupEntity).findOne({ where: { id } });
  }

  defaultGroup(tx?: Tx): Promise<ServiceOptionGroupEntity | null> {
    return (tx ?? this.dataSource.manager)
      .getRepository(ServiceOptionGroupEntity)
      .findOne({ where: { isDefault: true } });
  }

  /** An active group of this name (case-insensitive), other than `exceptId`. */
  async activeGroupNamed(name: string, exceptId: string | null, tx: Tx): Promise<boolean> {
    const rows: unknown[] = await tx.query(
      `SELECT 1 FROM stocks.service_option_groups
       WHERE lower(name) = lower($1) AND archived_at IS NULL AND id IS DISTINCT FROM $2`,
      [name, exceptId],
    );
    return rows.length > 0;
  }

  /**
   * Serializes the writes of option groups (rare staff actions): the one-default and unique-name rules are
   * checked and kept in the same transaction without a race.
   */
  async lockGroups(tx: Tx): Promise<void> {
    await tx.query(`LOCK TABLE stocks.service_option_groups IN SHARE ROW EXCLUSIVE MODE`);
  }

  /** A new group; its generated id. */
  async insertGroup(tx: Tx, group: { name: string; isDefault: boolean }): Promise<string> {
    const [row] = (await tx.query(
      `INSERT INTO stocks.service_option_groups (name, is_default) VALUES ($1, $2) RETURNING id`,
      [group.name, group.isDefault],
    )) as Array<{ id: string }>;
    return row!.id;
  }

  async updateGroup(
    tx: Tx,
    id: string,
    change: Partial<Pick<ServiceOptionGroupEntity, 'name' | 'isDefault' | 'archivedAt'>>,
  ): Promise<void> {
    await tx.update(ServiceOptionGroupEntity, { id }, { ...change, updatedAt: () => 'now()' });
  }

  /** Makes this group the default and no other. */
  async setDefaultGroup(tx: Tx, id: string): Promise<void> {
    await tx.query(
      `UPDATE stocks.service_option_groups SET is_default = false, updated_at = now() WHERE is_default AND id <> $1`,
      [id],
    );
    await tx.query(
      `UPDATE stocks.service_option_groups SET is_default = true, updated_at = now() WHERE id = $1 AND NOT is_default`,
      [id],
    );
  }

  /** Replaces a group's options with these, in this order (an option with an id keeps it). */
  async replaceOptions(tx: Tx, groupId: string, options: NewServiceOption[]): Promise<void> {
    await tx.delete(ServiceOptionEntity, { groupId });
    for (const [i, o] of options.entries())
      await tx.insert(ServiceOptionEntity, {
        ...(o.id ? { id: o.id } : {}),
        groupId,
        position: i + 1,
        name: o.name,
        priceCents: String(o.priceCents),
        lineItems: o.lineItems,
        isDefault: o.isDefault,
      });
  }

  /** One option by id, while its group is not archived (null otherwise). */
  offeredOption(optionId: string, tx?: Tx): Promise<ServiceOptionEntity | null> {
    return (tx ?? this.dataSource.manager)
      .getRepository(ServiceOptionEntity)
      .createQueryBuilder('o')
      .innerJoin(ServiceOptionGroupEntity, 'g', 'g.id = o.group_id')
      .where('o.id = :optionId AND g.archived_at IS NULL', { optionId })
      .getOne();
  }

  /** Every order, newest first. */
  async all(): Promise<ServiceOrderEntity[]> {
    const orders = await this.orders().find({ order: { timestamp: 'DESC', id: 'ASC' } });
    return orders.map((o) => this.opened(o));
  }

  async find(id: string, { tx, lock = false }: { tx?: Tx; lock?: boolean } = {}) {
    return this.opened(
      await this.orders(tx).findOne({
        where: { id },
        ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
      }),
    );
  }

  async ofStock(stockId: string): Promise<ServiceOrderEntity | null> {
    return this.opened(await this.orders().findOne({ where: { stockId } }));
  }

  count(): Promise<number> {
    return this.orders().count();
  }

  /** Stores an order and reads it back as stored. */
  async insert(tx: Tx, order: NewServiceOrder): Promise<ServiceOrderEntity> {
    const sealed = order.emailMarketing
      ? {
          ...order,
          emailMarketing: { ...order.emailMarketing, apiKey: this.box.seal(order.emailMarketing.apiKey) },
        }
      : order;
    const inserted = await tx.insert(ServiceOrderEntity, sealed);
    const id = (inserted.identifiers[0] as { id: string }).id;
    return this.opened(await tx.findOneByOrFail(ServiceOrderEntity, { id }));
  }

  /** Deletes the orders placed before `cutoff` that were never made into a stock; how many. */
  async deleteUncreatedPlacedBefore(cutoff: Date): Promise<number> {
    const result = await this.orders()
      .createQueryBuilder()
      .delete()
      .where('stock_id IS NULL AND timestamp < :cutoff', { cutoff })
      .execute();
    return result.affected ?? 0;
  }

  /** Marks the order created as this stock, with the ticker and reference it was created with. */
  async markCreated(
    tx: Tx,
    id: string,
    created: { stockId: string; ticker: string; reference: string; at: Date },
  ): Promise<void> {
    await tx.update(
      ServiceOrderEntity,
      { id },
      {
        stockId: created.stockId,
        ticker: created.ticker,
        reference: created.reference,
        createdAt: created.at,
      },
    );
  }
}
