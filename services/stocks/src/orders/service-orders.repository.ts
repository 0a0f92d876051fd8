import { Tx } from '@irp/platform';
import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { ServiceOptionEntity } from './service-option.entity';
import { ServiceOrderEntity } from './service-order.entity';

export type NewServiceOrder = Omit<ServiceOrderEntity, 'id' | 'timestamp' | 'stockId' | 'createdAt'> & {
  timestamp?: Date;
};

/** Service orders and their options; the only place that queries their tables. */
@Injectable()
export class ServiceOrdersRepository {
  constructor(private readonly dataSource: DataSource) {}

  private orders(tx: EntityManager = this.dataSource.manager) {
    return tx.getRepository(ServiceOrderEntity);
  }

  /** The options of a group, in card order. */
  optionsOf(groupId: string, tx?: Tx): Promise<ServiceOptionEntity[]> {
    return (tx ?? this.dataSource.manager)
      .getRepository(ServiceOptionEntity)
      .find({ where: { groupId }, order: { position: 'ASC' } });
  }

  /** One option by id (null when none has it). */
  option(optionId: string, tx?: Tx): Promise<ServiceOptionEntity | null> {
    return (tx ?? this.dataSource.manager)
      .getRepository(ServiceOptionEntity)
      .findOne({ where: { id: optionId } });
  }

  /** Every order, newest first. */
  all(): Promise<ServiceOrderEntity[]> {
    return this.orders().find({ order: { timestamp: 'DESC', id: 'ASC' } });
  }

  find(id: string, { tx, lock = false }: { tx?: Tx; lock?: boolean } = {}) {
    return this.orders(tx).findOne({
      where: { id },
      ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
  }

  ofStock(stockId: string): Promise<ServiceOrderEntity | null> {
    return this.orders().findOne({ where: { stockId } });
  }

  count(): Promise<number> {
    return this.orders().count();
  }

  /** Stores an order and reads it back as stored. */
  async insert(tx: Tx, order: NewServiceOrder): Promise<ServiceOrderEntity> {
    const inserted = await tx.insert(ServiceOrderEntity, order);
    const id = (inserted.identifiers[0] as { id: string }).id;
    return tx.findOneByOrFail(ServiceOrderEntity, { id });
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
