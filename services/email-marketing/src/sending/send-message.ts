import type { StoredAnnouncement } from '@irp/proto';
import type { MailContent, MailStock } from '../mail/templates';

/**
 * What a send stores (sends.message) so every delivery renders its mail without calling back: an
 * announcement to subscribers (each mail with its own unsubscribe links), or one finished mail for every
 * recipient (confirmation, notification and error mails).
 */
export interface AnnouncementSendMessage {
  kind: 'announcement';
  stock: MailStock;
  announcement: StoredAnnouncement;
}
export interface FixedMailMessage {
  kind: 'mail';
  content: MailContent;
}
export type SendMessage = AnnouncementSendMessage | FixedMailMessage;

/** Split a list into chunks of `size`. */
export function chunks<T>(list: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}
