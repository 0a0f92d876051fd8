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

/**
 * The cursor of a list whose items are named by another system's ids (the accounting system's invoices):
 * any id of its letters, digits and dashes.
 */
export const ForeignPageCursorSchema = z
  .string()
  .max(64, 'must be the `next` of a previous page')
  .regex(/^[A-Za-z0-9-]+$/, 'must be the `next` of a previous page');

type Cursor = typeof PageCursorSchema | typeof ForeignPageCursorSchema;

/**
 * The paging fields of a service request: at most `limit` (up to `max`), after `after` when given (a
 * `cursor`: an item's id, a uuid unless the list's ids are another system's).
 */
export const pageRequestFields = <C extends Cursor = typeof PageCursorSchema>(
  max: number,
  cursor: C = PageCursorSchema as C,
) => ({
  /** At most this many (a page); without it, every one. */
  limit: z.number().int().min(1).max(max).optional(),
  /** The page after the item a previous page ended with (its reply's `next`). */
  after: cursor.optional(),
});

/** A page's `next` in a service reply: null when the page was the last (or the list was read whole). */
export const nextPageField = PageCursorSchema.nullable().default(null);
/** The same of a list paged by another system's ids. */
export const foreignNextPageField = ForeignPageCursorSchema.nullable().default(null);
