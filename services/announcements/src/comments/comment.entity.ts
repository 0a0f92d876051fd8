import type { CommentFlag } from '@irp/proto';
import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * An investor's comment on an announcement (from the widget) and the moderator's response. `guid` is the
 * public id (the response page, the widget); `flags` are the moderation screen's findings at posting time.
 */
@Entity({ name: 'comments' })
export class CommentEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ type: 'uuid', generated: 'uuid' })
  guid!: string;

  @Column({ name: 'announcement_id', type: 'uuid' })
  announcementId!: string;

  @Column({ name: 'stock_id', type: 'uuid' })
  stockId!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text' })
  email!: string;

  /** Plain text, stored as given; every page and mail escapes it. */
  @Column({ type: 'text' })
  comment!: string;

  @Column({ type: 'jsonb', default: () => "'[]'" })
  flags!: CommentFlag[];

  @Column({ name: 'is_public', type: 'boolean', default: false })
  isPublic!: boolean;

  /** The moderator's response; null until one is submitted. */
  @Column({ type: 'text', nullable: true })
  response!: string | null;

  /** When the response text was last changed. */
  @Column({ name: 'responded_at', type: 'timestamptz', nullable: true })
  respondedAt!: Date | null;

  @Column({ name: 'responded_by', type: 'text', nullable: true })
  respondedBy!: string | null;

  /** How many times a response was posted publicly with new text: one mail to the commenter each. */
  @Column({ name: 'response_version', type: 'int', default: 0 })
  responseVersion!: number;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}
