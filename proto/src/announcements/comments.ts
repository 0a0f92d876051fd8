import { z } from 'zod';
import { ActorSchema } from '../stocks/stock';
import { StockId } from '../common/session';
import { COMMENT_LIMITS, COMMENT_TEXTS, containsMarkup } from './comment-rules';

/**
 * Announcement comments (spec sections 2, 3, 7): investors ask through the widget on the company's IR site,
 * the company's moderators answer, publicly or not. Owned by the announcements service; its mails go
 * through the email service (`comment.posted`, `comment.responded`).
 */

// ---------------------------------------------------------------------------------------------------
// Records

/** Why the moderation screen flagged a comment (the rule's id and its reason, shown to moderators). */
export const CommentFlagSchema = z.object({
  rule: z.string(),
  category: z.enum(['disclosure', 'listed-company', 'contact-details']),
  reason: z.string(),
  /** The words of the comment that matched. */
  match: z.string(),
});
export type CommentFlag = z.infer<typeof CommentFlagSchema>;

export const CommentReplySchema = z.object({
  comment: z.string(),
  date: z.string().datetime(),
});

/** Comment response (spec section 3), plus the stock, the announcement's id and the moderation flags. */
export const CommentResponseSchema = z.object({
  guid: z.string().uuid(),
  combinedTicker: z.string(),
  sendGuid: z.string().uuid(),
  announcementHeadline: z.string(),
  announcementDate: z.string().datetime(),
  /** When the investor asked. */
  created: z.string().datetime(),
  isPublic: z.boolean(),
  request: z.object({ name: z.string(), email: z.string(), comment: z.string() }),
  /** The moderator's response; null until one is submitted. */
  response: CommentReplySchema.nullable(),
  flags: z.array(CommentFlagSchema),
});
export type CommentResponse = z.infer<typeof CommentResponseSchema>;

/** One comment of a comment group (spec section 3: Comments result). */
export const CommentGroupItemSchema = z.object({
  announcementCommentEventGuid: z.string().uuid(),
  date: z.string().datetime(),
  name: z.string(),
  comment: z.string(),
  isPublic: z.boolean(),
  flags: z.array(CommentFlagSchema),
  responses: z.array(CommentReplySchema),
});
export type CommentGroupItem = z.infer<typeof CommentGroupItemSchema>;

export const CommentGroupSchema = z.object({
  sendGuid: z.string().uuid(),
  announcementHeadline: z.string(),
  announcementDate: z.string().datetime(),
  comments: z.array(CommentGroupItemSchema),
});
export type CommentGroup = z.infer<typeof CommentGroupSchema>;

/** Comments result (spec section 3): a ticker's comment groups, newest announcement first. */
export const CommentsResultSchema = z.object({
  combinedTicker: z.string(),
  /** All of the ticker's comment groups, whether or not `commentGroups` is narrowed to one announcement. */
  totalCommentGroups: z.number().int(),
  commentGroups: z.array(CommentGroupSchema),
});
export type CommentsResult = z.infer<typeof CommentsResultSchema>;

/** What the widget shows of a comment: public ones only, with their responses, never the email. */
export const WidgetCommentSchema = z.object({
  guid: z.string().uuid(),
  date: z.string().datetime(),
  name: z.string(),
  comment: z.string(),
  responses: z.array(CommentReplySchema),
});
export const WidgetCommentGroupSchema = z.object({
  sendGuid: z.string().uuid(),
  announcementHeadline: z.string(),
  announcementDate: z.string().datetime(),
  comments: z.array(WidgetCommentSchema),
});
export type WidgetCommentGroup = z.infer<typeof WidgetCommentGroupSchema>;

// ---------------------------------------------------------------------------------------------------
// REST shapes (docs/api/announcements.md)

const requiredText = (label: string, max: number) =>
  z
    .string({ required_error: `${label} is required`, invalid_type_error: `${label} must be text` })
    .transform((v) => v.trim())
    .pipe(z.string().min(1, `${label} is required`).max(max, `${label} must be at most ${max} characters`));

/** POST /api/widget/comments?apiKey: an investor's question on one of the key's stock's announcements. */
export const WidgetCommentBodySchema = z.object({
  sendGuid: z.string({ required_error: 'sendGuid is required' }).uuid('must be an announcement id'),
  name: requiredText('Name', COMMENT_LIMITS.name).refine(
    (v) => !containsMarkup(v),
    COMMENT_TEXTS.plainTextOnly,
  ),
  email: requiredText('Email', COMMENT_LIMITS.email).pipe(z.string().email('Email must be an email address')),
  comment: requiredText('Comment', COMMENT_LIMITS.comment).refine(
    (v) => !containsMarkup(v),
    COMMENT_TEXTS.plainTextOnly,
  ),
});
export type WidgetCommentBody = z.input<typeof WidgetCommentBodySchema>;
export const WidgetCommentPostedSchema = z.object({
  success: z.literal(true),
  guid: z.string().uuid(),
  message: z.string(),
});

/** GET /api/widget/comments?apiKey&sendGuid: the public comments of one announcement. */
export const WidgetCommentsQuerySchema = z.object({
  sendGuid: z.string({ required_error: 'sendGuid is required' }).uuid('must be an announcement id'),
});
export const WidgetCommentListSchema = WidgetCommentGroupSchema;
/** GET /api/widget/comment-groups?apiKey: the stock's public comment groups (interactive widget). */
export const WidgetCommentGroupsSchema = z.object({ commentGroups: z.array(WidgetCommentGroupSchema) });

/** GET /api/AnnouncementComments/?combinedTicker&announcementGuid (announcementGuid optional). */
export const AnnouncementCommentsQuerySchema = z.object({
  combinedTicker: z.string({ required_error: 'combinedTicker is required' }).min(1).max(40),
  announcementGuid: z
    .string()
    .optional()
    .transform((v) => (v ? v : undefined))
    .pipe(z.string().uuid('must be an announcement id').optional()),
});

export const CommentGuidParamsSchema = z.object({ guid: z.string().uuid('must be a comment id') });

/** POST /api/AnnouncementCommentResponse/{guid} (spec: body guid, comment, isPublic). */
export const CommentResponseBodySchema = z.object({
  guid: z.string({ required_error: 'guid is required' }).uuid('must be a comment id'),
  comment: z
    .string({ invalid_type_error: 'must be text' })
    .max(COMMENT_LIMITS.response, `Your response must be at most ${COMMENT_LIMITS.response} characters`)
    .default(''),
  isPublic: z.boolean({
    required_error: 'isPublic is required',
    invalid_type_error: 'must be true or false',
  }),
});
export type CommentResponseBody = z.input<typeof CommentResponseBodySchema>;

/** The answer of the POST (spec: errorMessage, success); errors are the one error body (errorMessage). */
export const CommentResponseSavedSchema = z.object({
  success: z.literal(true),
  errorMessage: z.null(),
  comment: CommentResponseSchema,
});
export type CommentResponseSaved = z.infer<typeof CommentResponseSavedSchema>;

// ---------------------------------------------------------------------------------------------------
// Messages between the gateway and the service

export const PostCommentRequestSchema = z.object({
  stockId: StockId,
  sendGuid: z.string().uuid(),
  name: z.string().max(COMMENT_LIMITS.name),
  email: z.string().max(COMMENT_LIMITS.email),
  comment: z.string().max(COMMENT_LIMITS.comment),
});
export const PostCommentReplySchema = z.object({ guid: z.string().uuid() });

export const WidgetCommentsRequestSchema = z.object({ stockId: StockId, sendGuid: z.string().uuid() });
export const WidgetCommentGroupsRequestSchema = z.object({ stockId: StockId });

/**
 * `checkedStockId`: the stock whose role the gateway checked (absent for an admin); a ticker or comment of
 * another stock here (a stale lookup) is not found, so what is read is always of the checked stock.
 */
export const CommentGroupsRequestSchema = z.object({
  /** The service shows a stock's comments (names, addresses' flags) only to a ReplyToComment holder. */
  actor: ActorSchema,
  combinedTicker: z.string().min(1).max(40),
  sendGuid: z.string().uuid().optional(),
  checkedStockId: StockId.optional(),
});

/** A comment by guid, with its stock's id so the gateway can check the caller's role on that stock. */
export const GetCommentRequestSchema = z.object({
  guid: z.string().uuid(),
  checkedStockId: StockId.optional(),
});
export const GetCommentReplySchema = z.object({ stockId: StockId, comment: CommentResponseSchema });

export const RespondToCommentRequestSchema = z.object({
  actor: ActorSchema,
  guid: z.string().uuid(),
  comment: z.string().max(COMMENT_LIMITS.response),
  isPublic: z.boolean(),
});

// ---------------------------------------------------------------------------------------------------
// Events (through the outbox; the email service mails them)

const CommentMailAnnouncementSchema = z.object({
  sendGuid: z.string().uuid(),
  headline: z.string(),
  date: z.string().datetime(),
});
const CommentMailStockSchema = z.object({
  id: StockId,
  ticker: z.string(),
  combinedTicker: z.string(),
  companyName: z.string(),
});

/** A new comment: the stock's moderator emails hear of it, with a link to the response page. */
export const CommentPostedEventSchema = z.object({
  guid: z.string().uuid(),
  stock: CommentMailStockSchema,
  announcement: CommentMailAnnouncementSchema,
  /** The stock's moderator emails as entered (comma or semicolon separated); '' when none. */
  moderatorEmails: z.string(),
  name: z.string(),
  email: z.string(),
  comment: z.string(),
  flags: z.array(CommentFlagSchema),
  /** Path of the response page on the portal: /AnnouncementCommentResponse/{guid}. */
  responsePath: z.string(),
  at: z.string().datetime(),
});
export type CommentPostedEvent = z.infer<typeof CommentPostedEventSchema>;

/**
 * A response posted publicly (or changed while public): the commenter receives it, in the stock's
 * announcement comment template. `version` counts the response's public edits (one mail per version).
 */
export const CommentRespondedEventSchema = z.object({
  guid: z.string().uuid(),
  version: z.number().int().min(1),
  stock: CommentMailStockSchema,
  announcement: CommentMailAnnouncementSchema,
  /** The stock's announcement comment template ({name}, {headline}, {comment}, {response}, {company}). */
  template: z.string(),
  name: z.string(),
  email: z.string(),
  comment: z.string(),
  response: z.string(),
  at: z.string().datetime(),
});
export type CommentRespondedEvent = z.infer<typeof CommentRespondedEventSchema>;
