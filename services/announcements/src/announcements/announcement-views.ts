import type { WidgetAnnouncement } from '@irp/proto';
import type { AnnouncementEntity } from '../stored-announcements/announcement.entity';
import { pdfUrlOf } from '../stored-announcements/announcement.mapper';

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
