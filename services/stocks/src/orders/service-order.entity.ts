import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** The option as ordered: name, price in cents, line items. */
export interface StoredOrderedOption {
  name: string;
  priceCents: number;
  lineItems: string[];
}

export interface StoredOrderEmailMarketing {
  service: 'mailchimp' | 'campaign-monitor';
  listId: string;
  apiKey: string;
  templateId: string;
  replyTo: string;
  fromName: string;
  clientId: string;
}

/** A service order placed through the public form (spec section 3); created once staff make its stock. */
@Entity({ name: 'service_orders' })
export class ServiceOrderEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  timestamp!: Date;

  @Column({ name: 'company_name', type: 'text' })
  companyName!: string;

  /** As the client wrote it; staff may correct it when creating the stock. */
  @Column({ type: 'text' })
  ticker!: string;

  /** The accounting reference staff gave when creating the stock ('' before). */
  @Column({ type: 'text', default: '' })
  reference!: string;

  @Column({ type: 'jsonb', nullable: true })
  option!: StoredOrderedOption | null;

  @Column({ name: 'authorised_by', type: 'text' })
  authorisedBy!: string;

  @Column({ type: 'text' })
  website!: string;

  @Column({ type: 'text' })
  address!: string;

  @Column({ name: 'contact_name', type: 'text' })
  contactName!: string;

  @Column({ name: 'contact_phone', type: 'text' })
  contactPhone!: string;

  @Column({ name: 'contact_email', type: 'text' })
  contactEmail!: string;

  @Column({ type: 'text' })
  abn!: string;

  @Column({ name: 'listing_date', type: 'text', default: '' })
  listingDate!: string;

  @Column({ name: 'confirmation_email', type: 'text', default: '' })
  confirmationEmail!: string;

  @Column({ name: 'send_price_sensitive_announcements', type: 'boolean', default: false })
  sendPriceSensitiveAnnouncements!: boolean;

  @Column({ name: 'send_non_price_sensitive_announcements', type: 'boolean', default: false })
  sendNonPriceSensitiveAnnouncements!: boolean;

  @Column({ name: 'auto_send_announcement_email', type: 'boolean', default: false })
  autoSendAnnouncementEmail!: boolean;

  @Column({ name: 'auto_send_non_price_sensitive_announcements', type: 'boolean', default: false })
  autoSendNonPriceSensitiveAnnouncements!: boolean;

  @Column({ name: 'email_marketing', type: 'jsonb', nullable: true })
  emailMarketing!: StoredOrderEmailMarketing | null;

  /** The stock made from the order: set once, when staff create it (the order is then created). */
  @Column({ name: 'stock_id', type: 'uuid', nullable: true })
  stockId!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz', nullable: true })
  createdAt!: Date | null;
}
