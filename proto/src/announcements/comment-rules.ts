/**
 * The comment rules' texts, limits and the plain-text check (spec sections 2, 4; docs/api/comments.md).
 * No zod here: the web app takes these values without the schemas.
 */

export const COMMENT_LIMITS = {
  name: 100,
  email: 254,
  comment: 2000,
  response: 5000,
} as const;

export const COMMENT_TEXTS = {
  received: 'Thank you. Your comment was received; the company will review it before it is published.',
  submitted: 'Response submitted successfully',
  submitting: 'Submitting...',
  flaggedNeedsResponse: 'This comment was flagged for review: write a response before posting it publicly.',
  notFound: 'Comment not found',
  plainTextOnly: 'Comments are plain text: remove the HTML tags or script.',
  widgetNote:
    'Comments on announcements feed the interactive announcements widget on your website: questions investors ask there appear here, and the responses you post publicly appear under them on the widget.',
} as const;

/** 'You responded to this comment on {date}. You can continue to make edits' (spec section 2). */
export const respondedWarning = (date: string) =>
  `You responded to this comment on ${date}. You can continue to make edits`;

/** Markup in a comment: an HTML tag, comment, entity-encoded tag or a script URL. Plain text has none. */
const MARKUP =
  /<\/?[a-z!?][^>]*>|<(script|iframe|img|svg|style|object|embed|link|meta)\b|&lt;\/?[a-z]|javascript\s*:/i;
export const containsMarkup = (text: string): boolean => MARKUP.test(text);
