/**
 * Announcement texts and rules the services, the gateway and the web app share (spec sections 4, 5, 8, 9).
 * No zod here: the web app imports these values at run time.
 */

/** The spec's messages (sections 5 and 8), exact. */
export const AnnouncementMessages = {
  fileRequired: 'File upload not defined. Must upload a pdf',
  headlineRequired: 'Headline not defined',
  unparsableDate: (value: string) => `Unable to parse date ${value}`,
  saveFailed: (message: string) => `Save Failed! ${message}`,
  deleteFailed: (message: string) => `Error deleting announcement: ${message}`,
  sent: 'Sent!',
  saved: 'Saved!',
  /** A send of an announcement already sent (or already requested) without the override flag. */
  alreadySent: 'This announcement has already been sent. Confirm to send it again.',
} as const;

/** The status of a stock's latest initial poll (or resync), as the announcements service keeps it. */
export type InitialPollStatus = 'running' | 'completed' | 'failed';

/** What the gateway knows of a stock's latest initial poll: its status, no run yet, or no answer. */
export type LatestInitialPoll = InitialPollStatus | 'none' | 'unknown';

/**
 * The Stock's `completedInitialPoll` (spec sections 3 and 4): a stock with polling off counts as complete;
 * otherwise its latest initial poll must have completed. `latest` is that run's status from the
 * announcements service (which alone keeps it), 'none' when no run has started yet (polling was just
 * switched on), or 'unknown' when that service did not answer: a page composed without it does not hold
 * Save back, as saving never disturbs an initial poll.
 */
export function completedInitialPollOf(pollAsx: boolean, latest: LatestInitialPoll): boolean {
  return !pollAsx || latest === 'completed' || latest === 'unknown';
}

/** The sending channels: direct email (SMTP) and the stock's email-marketing service. */
export const SendChannel = { Email: 'email', EmailMarketing: 'email-marketing' } as const;
export type SendChannel = (typeof SendChannel)[keyof typeof SendChannel];

/** The four switches of a stock that choose the channels (spec section 3). */
export interface SendSwitches {
  sendPriceSensitiveAnnouncements: boolean;
  sendNonPriceSensitiveAnnouncements: boolean;
  /** Email marketing, price-sensitive. */
  autoSendAnnouncementEmail: boolean;
  /** Email marketing, non-price-sensitive. */
  autoSendNonPriceSensitiveAnnouncements: boolean;
}

/** The channels an announcement of this kind goes to for a stock's switches. */
export function channelsFor(switches: SendSwitches, priceSensitive: boolean): SendChannel[] {
  const channels: SendChannel[] = [];
  if (priceSensitive ? switches.sendPriceSensitiveAnnouncements : switches.sendNonPriceSensitiveAnnouncements)
    channels.push(SendChannel.Email);
  if (priceSensitive ? switches.autoSendAnnouncementEmail : switches.autoSendNonPriceSensitiveAnnouncements)
    channels.push(SendChannel.EmailMarketing);
  return channels;
}

/** The 'Sync in Progress' label with the initial poll's progress, e.g. 'Sync in Progress: 2019 of 2026, 340 announcements'. */
export function syncProgressText(
  progress: { currentYear: number | null; toYear: number; found: number } | null,
): string {
  if (!progress || progress.currentYear === null) return 'Sync in Progress';
  const count = `${progress.found} announcement${progress.found === 1 ? '' : 's'}`;
  return `Sync in Progress: ${progress.currentYear} of ${progress.toYear}, ${count}`;
}
