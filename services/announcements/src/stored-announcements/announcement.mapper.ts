import type { StoredAnnouncement } from '@irp/proto';
import { AnnouncementEntity } from './announcement.entity';

/** The gateway path that serves a stored PDF (public: the guid is unguessable, announcements are public). */
export const pdfUrlOf = (sendGuid: string): string => `/api/Announcement/pdf/${sendGuid}`;

/**
 * The stored row as the protocol's StoredAnnouncement: who was mailed it is the email-marketing service's
 * (docs/adr/0013), composed in by the gateway.
 */
export function toAnnouncement(e: AnnouncementEntity): StoredAnnouncement {
  return {
    id: e.id,
    stockId: e.stockId,
    sendGuid: e.sendGuid,
    headline: e.headline,
    headlineOriginal: e.headlineOriginal,
    date: e.releasedAt.toISOString(),
    priceSensitive: e.priceSensitive,
    remotePath: e.remotePath,
    localPath: e.localPath,
    // A deleted announcement's PDF is not served (readFile): no link to a 404.
    pdfUrl: e.fileStatus === 'stored' && e.localPath && !e.deletedOn ? pdfUrlOf(e.sendGuid) : null,
    fileProblem: e.fileProblem,
    videoUrl: e.videoUrl,
    videoDescription: e.videoDescription,
    thumbnailPageNum: e.thumbnailPageNum,
    sendRequestedAt: e.sendRequestedAt ? e.sendRequestedAt.toISOString() : null,
    numComments: e.numComments,
    hits: e.hits,
    deletedOn: e.deletedOn ? e.deletedOn.toISOString() : null,
    origin: e.origin,
    autoSend: e.autoSend,
    createdAt: e.createdAt.toISOString(),
  };
}
