import type { InitialPollProgress } from '@irp/proto';
import type { InitialPollEntity } from './initial-poll.entity';

/** A stock's initial poll (or resync) row as the Announcements tab shows its progress. */
export function toInitialPollProgress(e: InitialPollEntity): InitialPollProgress {
  return {
    stockId: e.stockId,
    status: e.status,
    fromYear: e.fromYear,
    toYear: e.toYear,
    currentYear: e.currentYear,
    found: e.found,
    startedAt: e.startedAt.toISOString(),
    completedAt: e.completedAt ? e.completedAt.toISOString() : null,
    error: e.error,
  };
}
