import type { Announcement } from '@irp/proto';
import { useMemo } from 'react';
import { useFollowingPages } from '@/api/useFollowingPages';
import { announcementsApi } from './announcementsApi';

/** The older pages of a stock's announcements as far as they are loaded, and whether more are coming. */
export interface OlderAnnouncements {
  /** The older announcements loaded so far, newest first, after the page they continue. */
  announcements: readonly Announcement[];
  /** A page is on its way. */
  loading: boolean;
  /** Why the last page asked for did not come (the ones before it still show). */
  error: string | null;
  /** Services that did not answer for one of these pages (the gateway's `unavailable`). */
  unavailable: readonly string[];
}

const NONE: readonly Announcement[] = [];

/**
 * The announcements older than a first page whose `next` is given (the stock page's `announcementsNext`, the
 * list's `next`), page after page (useFollowingPages): a stock's 20 years show their newest page at once and
 * the rest as it comes. Any announcement change (its tags) refetches them.
 */
export function useOlderAnnouncements(
  combinedTicker: string,
  next: string | null | undefined,
): OlderAnnouncements {
  const { pages, loading, error } = useFollowingPages(
    announcementsApi.endpoints.olderAnnouncements,
    (after) => ({ combinedTicker, after }),
    combinedTicker,
    next,
  );
  return useMemo(
    () => ({
      announcements: pages.length ? pages.flatMap((p) => p.announcements) : NONE,
      loading,
      error,
      unavailable: [...new Set(pages.flatMap((p) => p.unavailable))],
    }),
    [pages, loading, error],
  );
}
