import { AppError, type Tx } from '@irp/platform';
import { ErrorCode } from '@irp/proto';
import type { AnnouncementEntity } from '../stored-announcements/announcement.entity';
import { AnnouncementRuleMessages } from './announcement-rules';
import type { AnnouncementsRepository } from './announcements.repository';

/** What the use cases of stored announcements share: their refusals and finding the one a request names. */

export const bad = (message: string) => new AppError(ErrorCode.BadRequest, message);
export const notFound = (ref: string) =>
  new AppError(ErrorCode.NotFound, AnnouncementRuleMessages.notFound(ref));

/** The stock's announcement `sendGuid` (locked with `lock`), or NOT_FOUND. */
export async function findAnnouncement(
  announcements: AnnouncementsRepository,
  tx: Tx,
  stockId: string,
  sendGuid: string,
  lock = false,
): Promise<AnnouncementEntity> {
  const e = await announcements.find(tx, stockId, sendGuid, lock);
  if (!e) throw notFound(sendGuid);
  return e;
}
