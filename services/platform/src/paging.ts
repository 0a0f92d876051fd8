/**
 * A page of a list read a page at a time (proto's common/paging.ts) from rows read one past the page's
 * `limit`, so the read itself tells whether another page follows: the page's rows, and its `next` (the id of
 * its last row, where the following page starts), or null when none follows.
 */
export function pageOfRows<T extends { id: string }>(
  rows: readonly T[],
  limit: number,
): { rows: T[]; next: string | null } {
  if (rows.length <= limit) return { rows: [...rows], next: null };
  const page = rows.slice(0, limit);
  return { rows: page, next: page[page.length - 1].id };
}
