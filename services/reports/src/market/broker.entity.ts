import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The provider's broker list: the names the reports show for the broker ids of the trades. */
@Entity({ name: 'brokers' })
export class BrokerEntity {
  @PrimaryColumn({ type: 'int' })
  id!: number;

  @Column({ type: 'text' })
  name!: string;
}
