import { z } from 'zod';

/**
 * Lists that grow without bound (a stock's 20 years of announcements, its tens of thousands of subscribers)
 * are read a page at a time (issue 35): a page answers its items and `next`, where the following page starts;
 * a request with `after: next` answers that page. The cursor is the id of the page's last item, so a page is
 * a keyset read (page 50 costs what page 1 does) and a list changed between two pages neither skips nor
 * repeats what stayed. The web app shows no page size: the first page at once, the rest as it comes
 * (web/src/api/useFollowingPages.ts).
 */
export const PageCursorSchema = z.string().uuid('must be the `next` of a previous page');

/** The paging fields of a service request: at most `limit` (up to `max`), after `after` when given. */
export const pageRequestFields = (max: number) => ({
  /** At most this many (a page); without it, every one. */
  limit: z.number().int().min(1).max(max).optional(),
  /** The page after the item a previous page ended with (its reply's `next`). */
  after: PageCursorSchema.optional(),
});

/** A page's `next` in a service reply: null when the page was the last (or the list was read whole). */
export const nextPageField = PageCursorSchema.nullable().default(null);
