import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { MailEventKind, MailEventSource } from './bounce-rules';

/**
 * What a receiving server reported about one of the portal's mails (issue 36): a hard or soft bounce or a
 * spam complaint, once per delivery and kind (the migration's partial unique index), with the stock the mail
 * was about and the address lower-cased.
 */
@Entity({ name: 'mail_events' })
export class MailEventEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  /** The delivery the report named (its return path); null when only an unsubscribe link named the subscriber. */
  @Column({ name: 'delivery_id', type: 'uuid', nullable: true })
  deliveryId!: string | null;

  @Column({ name: 'stock_id', type: 'uuid', nullable: true })
  stockId!: string | null;

  @Column({ type: 'text' })
  email!: string;

  @Column({ type: 'text' })
  kind!: MailEventKind;

  @Column({ type: 'text' })
  source!: MailEventSource;

  /** What the receiving side said: the DSN's status and diagnostic, the ARF's feedback type, the SMTP reply. */
  @Column({ type: 'text', default: '' })
  detail!: string;

  @Column({ name: 'occurred_at', type: 'timestamptz', default: () => 'now()' })
  occurredAt!: Date;
}
