import type { InitialPollProgress, WidgetAnnouncement } from '@irp/proto';
import type { InitialPollEntity } from '../initial-poll/initial-poll.entity';
import type { AnnouncementEntity } from './announcement.entity';
import { pdfUrlOf } from './announcement.mapper';

/** What a company's website sees of an announcement: no ids, paths, send state or origin. */
export function toWidgetAnnouncement(e: AnnouncementEntity): WidgetAnnouncement {
  return {
    sendGuid: e.sendGuid,
    headline: e.headline,
    date: e.releasedAt.toISOString(),
    priceSensitive: e.priceSensitive,
    pdfUrl: e.fileStatus === 'stored' && e.localPath ? pdfUrlOf(e.sendGuid) : null,
    remotePath: e.remotePath,
    videoUrl: e.videoUrl,
    videoDescription: e.videoDescription,
    thumbnailPageNum: e.thumbnailPageNum,
    // The widget counts what it can show: the comments made public.
    numComments: e.numPublicComments,
    hits: e.hits,
  };
}

/** A stock's initial poll (or resync) row as the Announcements tab shows its progress. */
export function toInitialPollProgress(e: InitialPollEntity): InitialPollProgress {
  return {
    stockId: e.stockId,
    status: e.status,
    fromYear: e.fromYear,
    toYear: e.toYear,
    currentYear: e.currentYear,
    found: e.found,
    startedAt: e.startedAt.toISOString(),
    completedAt: e.completedAt ? e.completedAt.toISOString() : null,
    error: e.error,
  };
}
