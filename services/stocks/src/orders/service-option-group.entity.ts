import { Column, Entity, PrimaryColumn } from 'typeorm';

/** An option group staff manage (docs/api/stocks.md, "Option groups"); its options are ServiceOptionEntity rows. */
@Entity({ name: 'service_option_groups' })
export class ServiceOptionGroupEntity {
  /** The id in /new-order/{id}: generated (a uuid as text, which PostgreSQL reads back as (gen_random_uuid())::text)
   * unless a group is given one. */
  @PrimaryColumn({ type: 'text', default: () => '(gen_random_uuid())' })
  id!: string;

  @Column({ type: 'text' })
  name!: string;

  /** What /new-order (no id) shows; one group at most. */
  @Column({ name: 'is_default', type: 'boolean', default: false })
  isDefault!: boolean;

  /** Set while archived: its order form is no longer offered. */
  @Column({ name: 'archived_at', type: 'timestamptz', nullable: true })
  archivedAt!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;
}
