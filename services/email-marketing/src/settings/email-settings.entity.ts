import type { EmailMarketingSettings } from '@irp/proto';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A stock's email-marketing settings (spec section 3); the provider key sealed (secret-box.ts). */
@Entity({ name: 'settings' })
export class EmailSettingsEntity {
  @PrimaryColumn({ name: 'stock_id', type: 'uuid' })
  stockId!: string;

  @Column({ type: 'text' })
  provider!: EmailMarketingSettings['provider'];

  @Column({ name: 'list_id', type: 'text', default: '' })
  listId!: string;

  /** Sealed with EMAIL_SECRETS_KEY (`v1:…`); '' when none is stored. */
  @Column({ name: 'api_key', type: 'text', default: '' })
  apiKey!: string;

  @Column({ name: 'template_id', type: 'text', default: '' })
  templateId!: string;

  @Column({ name: 'reply_to', type: 'text', default: '' })
  replyTo!: string;

  @Column({ name: 'from_name', type: 'text', default: '' })
  fromName!: string;

  @Column({ name: 'saved_segment_id', type: 'text', default: '' })
  savedSegmentId!: string;

  @Column({ name: 'client_id', type: 'text', default: '' })
  clientId!: string;

  @Column({ name: 'test_email_addresses', type: 'text', default: '' })
  testEmailAddresses!: string;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;

  /** Username of who saved them last. */
  @Column({ name: 'updated_by', type: 'text', default: '' })
  updatedBy!: string;
}
