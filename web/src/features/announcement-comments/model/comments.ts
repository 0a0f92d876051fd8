import type { CommentGroupItem } from '@irp/proto';

/** '1 comment group', '3 comment groups' (spec section 2: the ticker's total number of comment groups). */
export const commentGroupsLabel = (total: number): string =>
  `${total} comment ${total === 1 ? 'group' : 'groups'}`;

/** The comments screen of a ticker, or of one of its announcements. */
export const commentsPath = (combinedTicker: string, sendGuid?: string): string =>
  sendGuid
    ? `/AnnouncementComments/${combinedTicker}/${sendGuid}`
    : `/AnnouncementComments/${combinedTicker}`;

/** Where a comment's [Edit] link goes: its response page. */
export const responsePath = (item: Pick<CommentGroupItem, 'announcementCommentEventGuid'>): string =>
  `/AnnouncementCommentResponse/${item.announcementCommentEventGuid}`;

/** The Response column (spec section 2: the first response's comment); null when none was posted. */
export const firstResponseOf = (item: Pick<CommentGroupItem, 'responses'>): string | null =>
  item.responses[0]?.comment ?? null;

/** The reasons a comment was flagged for review, each once, in the order the rules found them. */
export const flagReasonsOf = (item: Pick<CommentGroupItem, 'flags'>): string[] => [
  ...new Set(item.flags.map((flag) => flag.reason)),
];
