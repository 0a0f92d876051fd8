import {
  Actor,
  AnnouncementMessages,
  channelsFor,
  displayTicker,
  ErrorCode,
  Exchange,
  formatIsoDate,
  hasStockRole,
  isAdmin,
  SendChannel,
  SendSwitches,
  StockRole,
} from '@irp/proto';
import { AppError } from '@irp/platform/errors';
import { parseSydneyDateTime, typedDate } from '../sydney-time';

/**
 * The rules of adding, editing, deleting and sending announcements (spec sections 2, 4, 5) as pure
 * functions, with every message in one place so each caller gets the same answer. The spec's own texts
 * are proto's AnnouncementMessages; the rest are this service's.
 */

const MB = 1024 * 1024;

export const AnnouncementRuleMessages = {
  ...AnnouncementMessages,
  alreadyDeleted: 'The announcement is already deleted',
  deletedNotSent: 'A deleted announcement cannot be sent',
  notPdf: 'The file is not a PDF',
  uploadIncomplete: 'The upload is incomplete',
  uploadNotBase64: 'The upload part is not base64',
  urlRequired: 'URL not defined. Must give the address of the announcement',
  fileOnlyForAsx: 'Only ASX announcements take a PDF upload; give the URL of the announcement instead',
  invalidUrl: (field: string, value: string) => `The ${field} ${value} is not an http(s) URL`,
  fileTooLarge: (maxBytes: number) => {
    const mb = maxBytes / MB;
    return `The file is larger than ${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB`;
  },
  noChannel: (ticker: string) =>
    `No sending channel is switched on for ${ticker}: turn on Email or email marketing sending on the Config tab`,
  noConfirmationEmails: (ticker: string) => `No confirmation emails are set for ${ticker} (Config tab)`,
  notFound: (ref: string) => `Announcement ${ref} not found`,
  noStoredFile: (sendGuid: string) => `Announcement ${sendGuid} has no stored file`,
  /** A page asked after an announcement that is not the stock's (a stale or altered `after`). */
  pageGone: (ticker: string) =>
    `The announcements of ${ticker} changed since this list was read: reload the page to see them`,
  mayNotEdit: (ticker: string) => `You may not edit the announcements of ${ticker}`,
  mayNotSend: (ticker: string) => `You may not send the announcements of ${ticker}`,
  adminOnlyConfirmation: 'Only admins may send a confirmation email',
} as const;

const bad = (message: string) => new AppError(ErrorCode.BadRequest, message);

/** How a stock is named in messages: ASX tickers bare, others with the exchange (spec section 2). */
export const tickerOf = (stock: { ticker: string; exchange: string }): string =>
  displayTicker(stock.ticker, stock.exchange);

// ---------------------------------------------------------------------------------------------------
// Authorization (the gateway checks roles; these keep a service caller to the same rules)

export function requireEditAnnouncements(
  actor: Actor,
  stock: { id: string; ticker: string; exchange: string },
) {
  if (!hasStockRole(actor, stock.id, StockRole.EditAnnouncements))
    throw new AppError(ErrorCode.Forbidden, AnnouncementRuleMessages.mayNotEdit(tickerOf(stock)));
}

export function requireSendAnnouncements(
  actor: Actor,
  stock: { id: string; ticker: string; exchange: string },
) {
  if (!hasStockRole(actor, stock.id, StockRole.SendMailchimp))
    throw new AppError(ErrorCode.Forbidden, AnnouncementRuleMessages.mayNotSend(tickerOf(stock)));
}

export function requireAdminForConfirmation(actor: Actor) {
  if (!isAdmin(actor))
    throw new AppError(ErrorCode.Forbidden, AnnouncementRuleMessages.adminOnlyConfirmation);
}

// ---------------------------------------------------------------------------------------------------
// Save

/** What a save asks for, as far as the rules need it. */
export interface SaveInput {
  exchange: string;
  sendGuid?: string;
  existingAnnouncementHeadline?: string;
  existingAnnouncementDate?: string;
  headline: string;
  date: string;
  remotePath: string;
  videoUrl: string;
  hasUpload: boolean;
}

/** What the rules make of a save: the values to store. */
export interface CheckedSave {
  editing: boolean;
  headline: string;
  releasedAt: Date;
  /** The URL to store (non-ASX); null keeps the stored one (an edit that left it empty, or any ASX stock). */
  remotePath: string | null;
  videoUrl: string;
}

/** An edit names its announcement by sendGuid or by the existing headline and date (spec section 7). */
export function isEdit(
  input: Pick<SaveInput, 'sendGuid' | 'existingAnnouncementHeadline' | 'existingAnnouncementDate'>,
) {
  return Boolean(
    input.sendGuid || input.existingAnnouncementHeadline?.trim() || input.existingAnnouncementDate?.trim(),
  );
}

const isHttpUrl = (value: string): boolean => {
  if (!/^https?:\/\//i.test(value)) return false;
  try {
    return Boolean(new URL(value).host);
  } catch {
    return false;
  }
};

/**
 * The save rules in the order a person fixes them: headline, date, then the document. ASX announcements
 * carry a PDF (required on add, optional on edit); other exchanges link to the exchange's page instead.
 */
export function checkSave(input: SaveInput): CheckedSave {
  const editing = isEdit(input);
  const headline = input.headline.trim();
  if (!headline) throw bad(AnnouncementRuleMessages.headlineRequired);
  const typed = typedDate(input.date);
  if ('problem' in typed) throw bad(typed.problem);
  const releasedAt = typed.date;

  let remotePath: string | null = null;
  if (input.exchange === Exchange.ASX) {
    if (!input.hasUpload && !editing) throw bad(AnnouncementRuleMessages.fileRequired);
  } else {
    if (input.hasUpload) throw bad(AnnouncementRuleMessages.fileOnlyForAsx);
    const url = input.remotePath.trim();
    if (!url && !editing) throw bad(AnnouncementRuleMessages.urlRequired);
    if (url && !isHttpUrl(url)) throw bad(AnnouncementRuleMessages.invalidUrl('URL', url));
    remotePath = url || null;
  }

  // The widget renders the video URL as a link, so nothing but http(s) goes in (no javascript: links).
  const videoUrl = input.videoUrl.trim();
  if (videoUrl && !isHttpUrl(videoUrl)) throw bad(AnnouncementRuleMessages.invalidUrl('video URL', videoUrl));
  return { editing, headline, releasedAt, remotePath, videoUrl };
}

/**
 * The existing date of an edit, parsed like the date; an edit by headline and date matches released_at
 * to the minute (the form shows no seconds).
 */
export function existingDateOf(value: string | undefined): Date {
  const parsed = parseSydneyDateTime(value ?? '');
  if (!parsed) throw bad(AnnouncementRuleMessages.unparsableDate(value ?? ''));
  return parsed;
}

/** The minute a time falls in, as [start, end): what an edit by headline and date matches. */
export function minuteOf(at: Date): { from: Date; to: Date } {
  const from = Math.floor(at.getTime() / 60_000) * 60_000;
  return { from: new Date(from), to: new Date(from + 60_000) };
}

/**
 * Of the announcements an edit by headline and date matched, the one it means: one not deleted before a
 * deleted one, then the most recently stored (a repeat of the same headline in the same minute is rare).
 */
export function pickEditTarget<T extends { deletedOn: Date | null; createdAt: Date }>(
  matches: readonly T[],
): T | null {
  const sorted = [...matches].sort(
    (a, b) =>
      Number(a.deletedOn !== null) - Number(b.deletedOn !== null) ||
      b.createdAt.getTime() - a.createdAt.getTime(),
  );
  return sorted[0] ?? null;
}

/**
 * headlineOriginal after an edit: the headline as first stored, kept once set (later edits never replace
 * it) and cleared when the headline is edited back to it.
 */
export function nextHeadlineOriginal(
  current: { headline: string; headlineOriginal: string | null },
  newHeadline: string,
): string | null {
  if (newHeadline === current.headline) return current.headlineOriginal;
  const original = current.headlineOriginal ?? current.headline;
  return newHeadline === original ? null : original;
}

// ---------------------------------------------------------------------------------------------------
// Uploads

/** True when the bytes start as every PDF does. */
export const isPdf = (bytes: Buffer): boolean => bytes.subarray(0, 4).toString('latin1') === '%PDF';

/** Strict base64 (what the gateway sends); Buffer.from would silently skip anything else. */
export function decodeBase64(data: string): Buffer {
  if (data.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(data))
    throw bad(AnnouncementRuleMessages.uploadNotBase64);
  return Buffer.from(data, 'base64');
}

/**
 * The file an upload's staged parts make: exactly `parts` of them, numbered 0..parts-1, joined in order;
 * at most maxBytes and a PDF, whatever the browser claimed.
 */
export function assembleUpload(
  staged: ReadonlyArray<{ index: number; data: Buffer }>,
  parts: number,
  maxBytes: number,
): Buffer {
  const sorted = [...staged].sort((a, b) => a.index - b.index);
  if (sorted.length !== parts || sorted.some((p, i) => p.index !== i))
    throw bad(AnnouncementRuleMessages.uploadIncomplete);
  const bytes = Buffer.concat(sorted.map((p) => p.data));
  if (bytes.length > maxBytes) throw bad(AnnouncementRuleMessages.fileTooLarge(maxBytes));
  if (!isPdf(bytes)) throw bad(AnnouncementRuleMessages.notPdf);
  return bytes;
}

// ---------------------------------------------------------------------------------------------------
// Send

/**
 * The channels a manual send uses: those the stock's switches choose for this kind of announcement; when
 * none, any channel a switch turns on (staff asked for this send, so a stock that only sends price-sensitive
 * announcements still gets a non-price-sensitive one it chose to send). None at all is refused.
 */
export function manualSendChannels(
  switches: SendSwitches,
  priceSensitive: boolean,
  ticker: string,
): SendChannel[] {
  const chosen = channelsFor(switches, priceSensitive);
  if (chosen.length) return chosen;
  const any = new Set([...channelsFor(switches, true), ...channelsFor(switches, false)]);
  const channels = [SendChannel.Email, SendChannel.EmailMarketing].filter((c) => any.has(c));
  if (!channels.length) throw bad(AnnouncementRuleMessages.noChannel(ticker));
  return channels;
}

// ---------------------------------------------------------------------------------------------------
// Files

const MAX_SLUG_LENGTH = 80;

/** A headline as a file-name part: lower-case letters and digits joined by '-', accents dropped. */
export function slugOf(headline: string): string {
  const slug = headline
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_SLUG_LENGTH)
    .replace(/-+$/, '');
  return slug || 'announcement';
}

/** The name a downloaded PDF gets: '<TICKER>-<yyyy-mm-dd>-<slug of headline>.pdf', the date in Sydney time. */
export const pdfFileName = (ticker: string, releasedAt: Date, headline: string): string =>
  `${ticker.toUpperCase()}-${formatIsoDate(releasedAt)}-${slugOf(headline)}.pdf`;
