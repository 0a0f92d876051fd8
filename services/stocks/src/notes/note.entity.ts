import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A staff note on a stock (the Notes tab). */
@Entity({ name: 'notes' })
export class NoteEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ name: 'stock_id', type: 'uuid' })
  stockId!: string;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  date!: Date;

  /** Username of the author. */
  @Column({ type: 'text' })
  user!: string;

  @Column({ type: 'text' })
  details!: string;
}
