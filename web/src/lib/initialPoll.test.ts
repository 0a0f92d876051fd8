import { describe, expect, it } from 'vitest';
import { isSyncing, SYNC_PROGRESS_POLL_MS, syncPollInterval } from './initialPoll';

describe('initial poll on the pages', () => {
  it('is syncing while the latest run is not completed; without a run, as completedInitialPoll says', () => {
    expect(isSyncing(false, { status: 'running' })).toBe(true);
    expect(isSyncing(false, { status: 'failed' })).toBe(true);
    // A run the page was given decides, even beside an older completedInitialPoll (the client tab's list).
    expect(isSyncing(false, { status: 'completed' })).toBe(false);
    expect(isSyncing(true, { status: 'running' })).toBe(true);
    expect(isSyncing(false, null)).toBe(true);
    expect(isSyncing(true, undefined)).toBe(false);
  });

  it('looks again only while a run runs or is about to start, never to wait for another service', () => {
    expect(syncPollInterval(false, { status: 'running' })).toBe(SYNC_PROGRESS_POLL_MS);
    expect(syncPollInterval(false, null)).toBe(SYNC_PROGRESS_POLL_MS);
    expect(syncPollInterval(false, { status: 'completed' })).toBe(0);
    expect(syncPollInterval(false, { status: 'failed' })).toBe(0);
    expect(syncPollInterval(true, null)).toBe(0);
  });
});
