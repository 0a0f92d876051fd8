import type { CommentGroup, CommentResponse, WidgetCommentGroup } from '@irp/proto';
import type { StockProjectionEntity } from '../stocks/stock-projection.entity';
import type { AnnouncementEntity } from '../stored-announcements/announcement.entity';
import type { CommentEntity } from './comment.entity';

/** Comments as the protocol and the mail events show them: no I/O, shared by the comment use cases. */

export const mailStock = (s: StockProjectionEntity) => ({
  id: s.id,
  ticker: s.ticker,
  combinedTicker: s.combinedTicker,
  companyName: s.companyName,
});

export const mailAnnouncement = (a: AnnouncementEntity) => ({
  sendGuid: a.sendGuid,
  headline: a.headline,
  date: a.releasedAt.toISOString(),
});

const responsesOf = (c: CommentEntity) =>
  c.response !== null && c.respondedAt ? [{ comment: c.response, date: c.respondedAt.toISOString() }] : [];

/** Comments grouped by announcement, newest announcement first; each group keeps the rows' order. */
export function groupBy(rows: CommentEntity[], announcements: Map<string, AnnouncementEntity>) {
  const groups = new Map<string, { announcement: AnnouncementEntity; comments: CommentEntity[] }>();
  for (const row of rows) {
    const announcement = announcements.get(row.announcementId);
    if (!announcement) continue;
    const group = groups.get(announcement.id) ?? { announcement, comments: [] };
    group.comments.push(row);
    groups.set(announcement.id, group);
  }
  return [...groups.values()].sort(
    (a, b) => b.announcement.releasedAt.getTime() - a.announcement.releasedAt.getTime(),
  );
}

export function toWidgetGroup(announcement: AnnouncementEntity, rows: CommentEntity[]): WidgetCommentGroup {
  return {
    sendGuid: announcement.sendGuid,
    announcementHeadline: announcement.headline,
    announcementDate: announcement.releasedAt.toISOString(),
    comments: rows.map((c) => ({
      guid: c.guid,
      date: c.createdAt.toISOString(),
      name: c.name,
      comment: c.comment,
      responses: responsesOf(c),
    })),
  };
}

/** One announcement's comments as the moderators' screen lists them. */
export function toCommentGroup(announcement: AnnouncementEntity, comments: CommentEntity[]): CommentGroup {
  return {
    sendGuid: announcement.sendGuid,
    announcementHeadline: announcement.headline,
    announcementDate: announcement.releasedAt.toISOString(),
    comments: comments.map((c) => ({
      announcementCommentEventGuid: c.guid,
      date: c.createdAt.toISOString(),
      name: c.name,
      comment: c.comment,
      isPublic: c.isPublic,
      flags: c.flags,
      responses: responsesOf(c),
    })),
  };
}

/** One comment as the response page shows it. */
export function toCommentResponse(
  c: CommentEntity,
  announcement: AnnouncementEntity,
  stock: StockProjectionEntity | null,
): CommentResponse {
  return {
    guid: c.guid,
    combinedTicker: stock?.combinedTicker ?? '',
    sendGuid: announcement.sendGuid,
    announcementHeadline: announcement.headline,
    announcementDate: announcement.releasedAt.toISOString(),
    created: c.createdAt.toISOString(),
    isPublic: c.isPublic,
    request: { name: c.name, email: c.email, comment: c.comment },
    response:
      c.response !== null && c.respondedAt
        ? { comment: c.response, date: c.respondedAt.toISOString() }
        : null,
    flags: c.flags,
  };
}
