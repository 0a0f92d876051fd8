import {
  channelsFor,
  type AnnouncementOrigin,
  type AutoSendState,
  type SendChannel,
  type SendSwitches,
} from '@irp/proto';

export interface AutoSendFacts {
  origin: AnnouncementOrigin;
  priceSensitive: boolean;
  switches: SendSwitches;
  /** The headline matches the stock's auto-send filter (`matchesAutoSendFilter`, matched by the caller). */
  matchesFilter: boolean;
  /** This stock's automatic sends requested within the last hour / day. */
  sentLastHour: number;
  sentLastDay: number;
  hourlyLimit: number;
  dailyLimit: number;
  /** Release time at the source and when this service first stored it. */
  releasedAt: Date;
  detectedAt: Date;
  /** Announcements found longer than this after their release are not sent automatically. */
  maxAgeMs: number;
}

export type AutoSendDecision =
  | { state: 'requested'; channels: SendChannel[] }
  | { state: Exclude<AutoSendState, 'requested'>; channels: SendChannel[] };

/**
 * What automatic sending does with a newly detected announcement (DESIGN.md "Composition"): only polled
 * announcements go out, and only when found within `maxAgeMs` of their release; the stock's switches choose
 * the channels; a headline matching the stock's filter
 * stays for a manual send; the system's hourly and daily limits (at or over) hold the rest back.
 */
export function decideAutoSend(f: AutoSendFacts): AutoSendDecision {
  if (f.origin !== 'poll') return { state: 'not-automatic', channels: [] };
  const channels = channelsFor(f.switches, f.priceSensitive);
  if (f.detectedAt.getTime() - f.releasedAt.getTime() > f.maxAgeMs) return { state: 'stale', channels };
  if (!channels.length) return { state: 'no-channel', channels };
  if (f.matchesFilter) return { state: 'filtered', channels };
  if (f.sentLastHour >= f.hourlyLimit) return { state: 'held-hourly', channels };
  if (f.sentLastDay >= f.dailyLimit) return { state: 'held-daily', channels };
  return { state: 'requested', channels };
}

/** The error email's text for an announcement a limit held back. */
export function heldBackMessage(
  ticker: string,
  headline: string,
  state: 'held-hourly' | 'held-daily',
  limit: number,
): string {
  const which = state === 'held-hourly' ? 'hourly' : 'daily';
  return `${ticker}: automatic send of "${headline}" held back: ${which} limit of ${limit} reached`;
}
