import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** One option of an option group (spec section 3's Service option); the order form shows a group's. */
@Entity({ name: 'service_options' })
export class ServiceOptionEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ name: 'group_id', type: 'text' })
  groupId!: string;

  /** Its card's place in the group (OPTION 1, 2, ...). */
  @Column({ type: 'int' })
  position!: number;

  @Column({ type: 'text' })
  name!: string;

  /** AUD excluding GST, in cents (bigint: read as text by the driver). */
  @Column({ name: 'price_cents', type: 'bigint' })
  priceCents!: string;

  @Column({ name: 'line_items', type: 'jsonb', default: () => `'[]'` })
  lineItems!: string[];

  @Column({ name: 'is_default', type: 'boolean', default: false })
  isDefault!: boolean;
}
