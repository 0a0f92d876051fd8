import { useEffect, useMemo, useState } from 'react';
import { shallowEqual } from 'react-redux';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { errorMessageOf } from '@/lib/apiError';

/** A page of a list that grows without bound: its items, and where the next page starts (null: the last). */
export interface FollowingPage {
  next: string | null;
}

/**
 * The RTK Query endpoint of a list's later pages, by the `after` each continues from: its `initiate` and
 * `select` (any query endpoint whose result is a page).
 */
export interface FollowingPagesEndpoint<Arg, Page extends FollowingPage> {
  initiate(arg: Arg): unknown;
  select(arg: Arg): (state: never) => { data?: Page; error?: unknown };
}

/** The pages that follow a first page, as far as they are loaded. */
export interface FollowingPages<Page extends FollowingPage> {
  /** In order, each loaded page; one still on its way is not among them. */
  pages: readonly Page[];
  /** A page is on its way. */
  loading: boolean;
  /** Why a page asked for did not come (the pages before it still count). */
  error: string | null;
}

const NONE: readonly never[] = [];

/**
 * Loads, one page after the other, the pages that follow a first page whose `next` is given, so a list that
 * grows without bound (a stock's 20 years of announcements, its subscribers) shows its first page at once and
 * the rest as it comes, with no page size on screen (issue 35). Each page stays subscribed while the caller is
 * shown, so a change that invalidates the endpoint's tags refetches the later pages too; a new `next` (the
 * first page changed) starts again from it. `argOf` names the page after a cursor; `list` is what the pages
 * are of (a stock's ticker): another list starts again.
 */
export function useFollowingPages<Arg, Page extends FollowingPage>(
  endpoint: FollowingPagesEndpoint<Arg, Page>,
  argOf: (after: string) => Arg,
  list: string,
  next: string | null | undefined,
): FollowingPages<Page> {
  const dispatch = useAppDispatch();
  // The `after` of each page asked for so far, in order; started again when the first page's `next` changes.
  const [cursors, setCursors] = useState<{ list: string; from: string | null | undefined; afters: string[] }>(
    { list, from: next, afters: next ? [next] : [] },
  );
  if (cursors.list !== list || cursors.from !== next)
    setCursors({ list, from: next, afters: next ? [next] : [] });
  const afters: readonly string[] = cursors.list === list && cursors.from === next ? cursors.afters : NONE;
  const key = afters.join(' ');

  useEffect(() => {
    const subscriptions = afters.map(
      (after) => dispatch(endpoint.initiate(argOf(after)) as never) as unknown as { unsubscribe(): void },
    );
    return () => subscriptions.forEach((s) => s.unsubscribe());
    // The cursors' joined value is what changes them; the endpoint and argOf name the same pages for a list.
  }, [dispatch, list, key]);

  // Each page's data and error, flat, compared one by one: a page's data keeps its identity until refetched.
  const states = useAppSelector(
    (state) =>
      afters.flatMap((after) => {
        // The store's type does not name the injected endpoints' caches.
        const page = endpoint.select(argOf(after))(state as never);
        return [page.data, page.error];
      }),
    shallowEqual,
  );
  const following = (states[states.length - 2] as Page | undefined)?.next ?? null;
  useEffect(() => {
    if (following && !afters.includes(following))
      setCursors((c) => (c.afters.includes(following) ? c : { ...c, afters: [...c.afters, following] }));
  }, [following, afters]);

  return useMemo(() => {
    const pages: Page[] = [];
    let loading = false;
    let error: string | null = null;
    for (let i = 0; i < states.length; i += 2) {
      const data = states[i] as Page | undefined;
      if (states[i + 1] !== undefined && error === null) error = errorMessageOf(states[i + 1]);
      if (data) pages.push(data);
      else loading = true;
    }
    return { pages, loading: loading && error === null, error };
  }, [states]);
}
