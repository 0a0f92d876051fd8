import type { CommentGroup, CommentGroupItem, CommentsResult } from '@irp/proto';

let next = 0;
const guid = (prefix: string) => `${prefix}-0000-4000-8000-${String((next += 1)).padStart(12, '0')}`;

/** A comment of a comment group as GET /api/AnnouncementComments/ answers it. */
export function commentItem(overrides: Partial<CommentGroupItem> = {}): CommentGroupItem {
  return {
    announcementCommentEventGuid: guid('c1c2c3c4'),
    date: '2025-03-22T01:15:00.000Z',
    name: 'Jane Investor',
    comment: 'When is the next dividend?',
    isPublic: false,
    flags: [],
    responses: [],
    ...overrides,
  };
}

/** One announcement's comment group. */
export function commentGroup(overrides: Partial<CommentGroup> = {}): CommentGroup {
  return {
    sendGuid: guid('a1a2a3a4'),
    announcementHeadline: 'Quarterly Activities Report',
    announcementDate: '2025-03-21T21:50:00.000Z',
    comments: [commentItem()],
    ...overrides,
  };
}

/** The comments result of BHP:ASX; totalCommentGroups counts `groups` unless given. */
export function commentsResult(groups: CommentGroup[], totalCommentGroups = groups.length): CommentsResult {
  return { combinedTicker: 'BHP:ASX', totalCommentGroups, commentGroups: groups };
}
