import type { InitialPollProgress } from '@irp/proto';

/** While an initial poll (or resync) runs, pages look again this often to show its progress. */
export const SYNC_PROGRESS_POLL_MS = 2000;

/**
 * 'Sync in Progress' (spec section 4): the stock's initial poll has not completed. A run the page was given
 * (the announcements service's latest, the one the gateway composed completedInitialPoll from) decides:
 * running or failed is not complete. Without one the stock's completedInitialPoll does (polling off, or a
 * run about to start). Shared by the staff stock page's label and both Announcements tabs, so they agree.
 */
export function isSyncing(
  completedInitialPoll: boolean,
  initialPoll: Pick<InitialPollProgress, 'status'> | null | undefined,
): boolean {
  return initialPoll ? initialPoll.status !== 'completed' : !completedInitialPoll;
}

/**
 * How often a page looks again at an initial poll: while one runs (its progress shows) or is about to
 * start (polling was just switched on); not after it completed or failed (a resync or a save refetches).
 */
export function syncPollInterval(
  completedInitialPoll: boolean,
  initialPoll: Pick<InitialPollProgress, 'status'> | null | undefined,
): number {
  return isSyncing(completedInitialPoll, initialPoll) && initialPoll?.status !== 'failed'
    ? SYNC_PROGRESS_POLL_MS
    : 0;
}

/** The share of the run's years already read, 0 to 100 (a completed run is 100). */
export function syncProgressPercent(
  initialPoll: Pick<InitialPollProgress, 'status' | 'fromYear' | 'toYear' | 'currentYear'> | null | undefined,
): number {
  if (!initialPoll) return 0;
  if (initialPoll.status === 'completed') return 100;
  const years = initialPoll.toYear - initialPoll.fromYear + 1;
  if (initialPoll.currentYear === null || years <= 0) return 0;
  // The current year is being read, so the years before it are done.
  const done = Math.min(Math.max(initialPoll.currentYear - initialPoll.fromYear, 0), years);
  return Math.round((done / years) * 100);
}
