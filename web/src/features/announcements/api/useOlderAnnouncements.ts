import type { Announcement } from '@irp/proto';
import { useEffect, useMemo, useState } from 'react';
import { shallowEqual } from 'react-redux';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { errorMessageOf } from '@/lib/apiError';
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
const older = announcementsApi.endpoints.olderAnnouncements;
type OlderPage = typeof older.Types.ResultType;

/**
 * Loads, one page after the other, the announcements older than a first page whose `next` is given (the stock
 * page's `announcementsNext`, the list's `next`), so a stock's 20 years show their newest page at once and the
 * rest as it comes, with no page size on screen (issue 35). Each page stays subscribed while shown, so an
 * announcement change (its tags) refetches the older pages too. A new `next` (the first page changed) starts
 * again from it.
 */
export function useOlderAnnouncements(
  combinedTicker: string,
  next: string | null | undefined,
): OlderAnnouncements {
  const dispatch = useAppDispatch();
  // The `after` of each older page asked for so far, in order.
  const [cursors, setCursors] = useState<readonly string[]>([]);
  const [from, setFrom] = useState<string | null | undefined>(next);
  if (from !== next) {
    setFrom(next);
    setCursors([]);
  }
  const afters = from === next && next ? (cursors.length ? cursors : [next]) : [];

  useEffect(() => {
    const subscriptions = afters.map((after) => dispatch(older.initiate({ combinedTicker, after })));
    return () => subscriptions.forEach((s) => s.unsubscribe());
    // `afters` is derived from state on each render: its joined value is what changes it.
  }, [dispatch, combinedTicker, afters.join(' ')]);

  // Each page's data and error, flat, compared one by one (a page's data keeps its identity).
  const states = useAppSelector(
    (state) =>
      afters.flatMap((after) => {
        // The store's type does not name the injected endpoints' cache.
        const page = older.select({ combinedTicker, after })(state as never);
        return [page.data, page.error];
      }),
    shallowEqual,
  );
  const pages = afters.map((_, i) => ({
    data: states[2 * i] as OlderPage | undefined,
    error: states[2 * i + 1] as unknown,
  }));
  const last = pages[pages.length - 1];
  const following = last?.data?.next ?? null;

  useEffect(() => {
    if (following && !afters.includes(following)) setCursors([...afters, following]);
  }, [following, afters]);

  // `states` keeps its identity while no page changed (the selector's shallowEqual).
  const announcements = useMemo(
    () => (pages.some((p) => p.data) ? pages.flatMap((p) => p.data?.announcements ?? []) : NONE),
    [states],
  );
  const failed = pages.find((p) => p.error !== undefined);
  return {
    announcements,
    loading: !failed && pages.some((p) => !p.data),
    error: failed ? errorMessageOf(failed.error) : null,
    unavailable: [...new Set(pages.flatMap((p) => p.data?.unavailable ?? []))],
  };
}
