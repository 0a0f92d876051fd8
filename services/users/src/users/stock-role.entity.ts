import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type { Relation } from 'typeorm';
import { UserEntity } from './user.entity';

/** A user's roles on one stock. */
@Entity({ name: 'user_stock_roles' })
export class StockRoleEntity {
  @PrimaryColumn({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @PrimaryColumn({ name: 'stock_id', type: 'uuid' })
  stockId!: string;

  @Column({ type: 'text', array: true, default: () => `'{}'` })
  roles!: string[];

  @ManyToOne(() => UserEntity, (u) => u.stockRoles, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  // Relation<>: the property's emitted type is then not the class, so loading user.entity.ts first (the
  // two import each other) does not read UserEntity before it exists.
  user!: Relation<UserEntity>;
}
