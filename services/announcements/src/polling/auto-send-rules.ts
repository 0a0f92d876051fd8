import {
  channelsFor,
  matchesAutoSendFilter,
  type AnnouncementOrigin,
  type AutoSendState,
  type SendChannel,
  type SendSwitches,
} from '@irp/proto';

export interface AutoSendFacts {
  origin: AnnouncementOrigin;
  headline: string;
  priceSensitive: boolean;
  switches: SendSwitches;
  autoSendFilter: string;
  /** This stock's automatic sends requested within the last hour / day. */
  sentLastHour: number;
  sentLastDay: number;
  hourlyLimit: number;
  dailyLimit: number;
}

export type AutoSendDecision =
  | { state: 'requested'; channels: SendChannel[] }
  | { state: Exclude<AutoSendState, 'requested'>; channels: SendChannel[] };

/**
 * What automatic sending does with a newly detected announcement (DESIGN.md "Composition"): only polled
 * announcements go out; the stock's switches choose the channels; a headline matching the stock's filter
 * stays for a manual send; the system's hourly and daily limits (at or over) hold the rest back.
 */
export function decideAutoSend(f: AutoSendFacts): AutoSendDecision {
  if (f.origin !== 'poll') return { state: 'not-automatic', channels: [] };
  const channels = channelsFor(f.switches, f.priceSensitive);
  if (!channels.length) return { state: 'no-channel', channels };
  if (matchesAutoSendFilter(f.headline, f.autoSendFilter)) return { state: 'filtered', channels };
  if (f.sentLastHour >= f.hourlyLimit) return { state: 'held-hourly', channels };
  if (f.sentLastDay >= f.dailyLimit) return { state: 'held-daily', channels };
  return { state: 'requested', channels };
}

/** The error email's text for an announcement a limit held back. */
export function heldBackMessage(ticker: string, headline: string, state: 'held-hourly' | 'held-daily', limit: number): string {
  const which = state === 'held-hourly' ? 'hourly' : 'daily';
  return `${ticker}: automatic send of "${headline}" held back: ${which} limit of ${limit} reached`;
}
