import {
  Actor,
  COMMENT_LIMITS,
  COMMENT_TEXTS,
  CommentFlag,
  containsMarkup,
  ErrorCode,
  hasStockRole,
  StockRole,
} from '@irp/proto';
import { AppError } from '@irp/platform/errors';
import { tickerOf } from '../announcements/announcement-rules';

/**
 * The rules of posting and answering comments as pure functions: what a widget post must be, who may
 * respond, when a response may be public and when the commenter is mailed. The messages are proto's
 * COMMENT_TEXTS, so the gateway, the service and the web app say the same.
 */

const bad = (message: string) => new AppError(ErrorCode.BadRequest, message);

export const CommentRuleMessages = {
  ...COMMENT_TEXTS,
  announcementNotFound: (sendGuid: string) => `Announcement ${sendGuid} not found`,
  mayNotRespond: (ticker: string) => `You may not respond to the comments of ${ticker}`,
} as const;

export interface CommentInput {
  name: string;
  email: string;
  comment: string;
}

const EMAIL = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]+$/;

/**
 * A widget post, checked again by the service whatever the gateway did: required fields, lengths, an email
 * address and plain text only. Returns the fields trimmed; the comment's own line breaks are kept.
 */
export function checkCommentInput(input: CommentInput): CommentInput {
  const name = input.name.trim();
  const email = input.email.trim();
  const comment = input.comment.trim();
  if (!name) throw bad('Name is required');
  if (!email) throw bad('Email is required');
  if (!comment) throw bad('Comment is required');
  if (name.length > COMMENT_LIMITS.name) throw bad(`Name must be at most ${COMMENT_LIMITS.name} characters`);
  if (email.length > COMMENT_LIMITS.email || !EMAIL.test(email)) throw bad('Email must be an email address');
  if (comment.length > COMMENT_LIMITS.comment)
    throw bad(`Comment must be at most ${COMMENT_LIMITS.comment} characters`);
  if (containsMarkup(name) || containsMarkup(comment)) throw bad(COMMENT_TEXTS.plainTextOnly);
  return { name, email, comment };
}

/** Admins, and client users holding ReplyToComment on the comment's stock. */
export function requireReplyToComment(actor: Actor, stock: { id: string; ticker: string; exchange: string }) {
  if (!hasStockRole(actor, stock.id, StockRole.ReplyToComment))
    throw new AppError(ErrorCode.Forbidden, CommentRuleMessages.mayNotRespond(tickerOf(stock)));
}

export interface StoredResponse {
  flags: CommentFlag[];
  isPublic: boolean;
  response: string | null;
  respondedAt: Date | null;
  responseVersion: number;
}

export interface ResponseChange {
  isPublic: boolean;
  response: string | null;
  respondedAt: Date | null;
  responseVersion: number;
  /** The commenter is mailed this version of the response (posted publicly with new text). */
  mailCommenter: boolean;
  /** +1 when the comment became public, -1 when it left public view, 0 otherwise. */
  publicDelta: -1 | 0 | 1;
}

/**
 * A moderator's submit (spec section 2: response text and 'Post publicly'). A flagged comment is never made
 * public without a response; an empty response clears it. The commenter hears of a public response each
 * time its text changes (or it becomes public), never of a private one.
 */
export function applyResponse(
  stored: StoredResponse,
  submitted: { comment: string; isPublic: boolean },
  now: Date,
): ResponseChange {
  const text = submitted.comment.trim();
  if (submitted.comment.length > COMMENT_LIMITS.response)
    throw bad(`Your response must be at most ${COMMENT_LIMITS.response} characters`);
  if (submitted.isPublic && stored.flags.length > 0 && !text) throw bad(COMMENT_TEXTS.flaggedNeedsResponse);
  const response = text ? text : null;
  const changed = response !== stored.response;
  const respondedAt = response === null ? null : changed ? now : stored.respondedAt;
  const mailCommenter = submitted.isPublic && response !== null && (changed || !stored.isPublic);
  return {
    isPublic: submitted.isPublic,
    response,
    respondedAt,
    responseVersion: stored.responseVersion + (mailCommenter ? 1 : 0),
    mailCommenter,
    publicDelta: submitted.isPublic === stored.isPublic ? 0 : submitted.isPublic ? 1 : -1,
  };
}
