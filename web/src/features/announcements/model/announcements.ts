import { formatDateTime, type Announcement } from '@irp/proto';
import { routeForm, type BodyOf } from '@/api/route';
import { routes } from '@/api/routes';
import { safeHttpUrl } from '@/lib/website';

/** What the Add/Edit form holds (spec section 2, Announcements tab: the edit form). */
export interface AnnouncementFormValues {
  headline: string;
  /** Sydney time as typed, like '22 Mar 2025 8:50 AM'; the service parses it. */
  date: string;
  priceSensitive: boolean;
  /** Non-ASX: the announcement's URL (ASX keeps the source's URL it was fetched from). */
  remotePath: string;
  videoUrl: string;
  videoDescription: string;
  /** As typed; '' for none. */
  thumbnailPageNum: string;
  /** ASX: the PDF chosen; null keeps the stored one when editing. */
  file: File | null;
}

/** What a user may do on a stock's Announcements tab (the page decides from the roles). */
export interface AnnouncementPermissions {
  /** Add, Edit, Delete (Admin, or EditAnnouncements on the stock). */
  edit: boolean;
  /** Send Email (Admin, or SendMailchimp on the stock). */
  send: boolean;
  /** Send Confirmation Email (Admin, staff page). */
  sendConfirmation: boolean;
  /** Resync (Admin, staff page). */
  resync: boolean;
  /** The Comments count links to the announcement's comments (Admin, or ReplyToComment on the stock). */
  viewComments: boolean;
}

export type RowAction = 'edit' | 'send' | 'sendConfirmation' | 'delete';

/** The row menu's items, as the spec names them. */
export const ROW_ACTION_LABELS: Readonly<Record<RowAction, string>> = {
  edit: 'Edit',
  send: 'Send Email',
  sendConfirmation: 'Send Confirmation Email',
  delete: 'Delete',
};

/** Only ASX announcements take a PDF upload; the others link to the exchange's copy (spec section 2). */
export const takesPdfUpload = (exchange: string): boolean => exchange.trim().toUpperCase() === 'ASX';

/** Newest first (spec section 2: sorted by date descending); the list given is left as it is. */
export function sortNewestFirst(announcements: readonly Announcement[]): Announcement[] {
  // Each date parsed once (a stock's 20 years are thousands); the service's order (newest first) kept as it is.
  const times = announcements.map((a) => Date.parse(a.date));
  if (times.every((t, i) => i === 0 || t <= times[i - 1]!)) return [...announcements];
  return times
    .map((t, i) => ({ t, i }))
    .sort((a, b) => b.t - a.t || a.i - b.i)
    .map(({ i }) => announcements[i]!);
}

/**
 * A first page of a stock's announcements followed by the older pages loaded so far (useOlderAnnouncements),
 * each announcement once: a page fetched again after a change may overlap the one before it.
 */
export function withOlder(
  first: readonly Announcement[],
  older: readonly Announcement[],
): readonly Announcement[] {
  if (older.length === 0) return first;
  const seen = new Set(first.map((a) => a.sendGuid));
  return [...first, ...older.filter((a) => !seen.has(a.sendGuid) && seen.add(a.sendGuid))];
}

/**
 * The row menu for one announcement. A deleted one cannot be deleted again (spec section 4), and the
 * service refuses to send it, so its send items are left out too.
 */
export function rowActions(announcement: Announcement, permissions: AnnouncementPermissions): RowAction[] {
  const deleted = announcement.deletedOn !== null;
  const actions: RowAction[] = [];
  if (permissions.edit) actions.push('edit');
  if (permissions.send && !deleted) actions.push('send');
  if (permissions.sendConfirmation && !deleted) actions.push('sendConfirmation');
  if (permissions.edit && !deleted) actions.push('delete');
  return actions;
}

/** Sent already, or a send already requested: sending again needs the second confirmation (spec section 4). */
export const wasSent = (announcement: Announcement): boolean =>
  announcement.sent || announcement.sendRequestedAt !== null;

export type FlagKind =
  'sent' | 'sendRequested' | 'priceSensitive' | 'deleted' | 'originalHeadline' | 'fileProblem' | 'autoSend';

/** One icon beside a headline: its accessible name is also its tooltip. */
export interface AnnouncementFlag {
  kind: FlagKind;
  label: string;
  /** Further tooltip lines (the send history). */
  details: string[];
  /** A count shown beside the icon (the send history's length). */
  count?: number;
}

/** Send history lines shown in the sent icon's tooltip: the latest few, newest first. */
const HISTORY_LINES = 5;

const AUTO_SEND_LABELS: Partial<Record<NonNullable<Announcement['autoSend']>, string>> = {
  filtered: 'Not sent automatically: matches the auto-send filter',
  'held-hourly': 'Not sent automatically: the hourly auto-send limit was reached',
  'held-daily': 'Not sent automatically: the daily auto-send limit was reached',
  stale: 'Not sent automatically: found more than a day after its release',
};

/** The icons of a row (spec section 2: sent, price sensitive, deleted date, original headline), in order. */
export function flagsOf(announcement: Announcement): AnnouncementFlag[] {
  const flags: AnnouncementFlag[] = [];
  const history = announcement.sendHistory;
  if (announcement.sent) {
    const lines = [...history]
      .sort((a, b) => Date.parse(b.timestamp) - Date.parse(a.timestamp))
      .slice(0, HISTORY_LINES)
      .map((entry) => `${formatDateTime(entry.timestamp)} ${entry.emailAddress}`);
    if (history.length > HISTORY_LINES) lines.push(`and ${history.length - HISTORY_LINES} more`);
    flags.push({
      kind: 'sent',
      label: `Sent (${history.length} in send history)`,
      details: lines,
      count: history.length,
    });
  } else if (announcement.sendRequestedAt) {
    flags.push({
      kind: 'sendRequested',
      label: `Send requested ${formatDateTime(announcement.sendRequestedAt)}`,
      details: [],
    });
  }
  if (announcement.priceSensitive)
    flags.push({ kind: 'priceSensitive', label: 'Price sensitive', details: [] });
  if (announcement.deletedOn) {
    flags.push({ kind: 'deleted', label: `Deleted ${formatDateTime(announcement.deletedOn)}`, details: [] });
  }
  if (announcement.headlineOriginal !== null && announcement.headlineOriginal !== announcement.headline) {
    flags.push({
      kind: 'originalHeadline',
      label: `Original headline: ${announcement.headlineOriginal}`,
      details: [],
    });
  }
  if (announcement.fileProblem) {
    flags.push({ kind: 'fileProblem', label: `File problem: ${announcement.fileProblem}`, details: [] });
  }
  const autoSend = announcement.autoSend ? AUTO_SEND_LABELS[announcement.autoSend] : undefined;
  if (autoSend && !announcement.sent) flags.push({ kind: 'autoSend', label: autoSend, details: [] });
  return flags;
}

/** The form for a new announcement (now, Sydney time) or for editing `announcement`. */
export function formValuesOf(
  announcement: Announcement | null,
  now: Date = new Date(),
): AnnouncementFormValues {
  if (!announcement) {
    return {
      headline: '',
      date: formatDateTime(now),
      priceSensitive: false,
      remotePath: '',
      videoUrl: '',
      videoDescription: '',
      thumbnailPageNum: '',
      file: null,
    };
  }
  return {
    headline: announcement.headline,
    date: formatDateTime(announcement.date),
    priceSensitive: announcement.priceSensitive,
    remotePath: announcement.remotePath,
    videoUrl: announcement.videoUrl,
    videoDescription: announcement.videoDescription,
    thumbnailPageNum: announcement.thumbnailPageNum === null ? '' : String(announcement.thumbnailPageNum),
    file: null,
  };
}

/**
 * The multipart body of POST /api/Announcement/save (spec section 7). An edit names the announcement by
 * its current headline and date (formatted as the form shows dates) and by its sendGuid.
 */
export function announcementFormData(
  values: AnnouncementFormValues,
  existing: Announcement | null,
): BodyOf<typeof routes.announcements.save> {
  return routeForm(routes.announcements.save, {
    headline: values.headline.trim(),
    date: values.date.trim(),
    remotePath: values.remotePath.trim(),
    priceSensitive: values.priceSensitive ? 'true' : 'false',
    videoUrl: values.videoUrl.trim(),
    videoDescription: values.videoDescription,
    thumbnailPageNum: values.thumbnailPageNum.trim(),
    ...(existing
      ? {
          existingAnnouncementHeadline: existing.headline,
          existingAnnouncementDate: formatDateTime(existing.date),
          sendGuid: existing.sendGuid,
        }
      : {}),
    file: values.file,
  });
}

/** The announcement comments screen of one announcement (spec section 2). */
export const commentsHref = (combinedTicker: string, announcement: Pick<Announcement, 'sendGuid'>): string =>
  `/AnnouncementComments/${combinedTicker}/${announcement.sendGuid}`;

/** Where the headline links: the stored PDF, else (non-ASX) the announcement's http(s) address. */
export function documentHref(announcement: Announcement): string | null {
  return announcement.pdfUrl ?? safeHttpUrl(announcement.remotePath);
}

/**
 * Alert latency (release at the source -> the first subscriber mail accepted), as a person reads it:
 * '42 s', '3 min 5 s', '2 h 10 min', '3 d 4 h'; '' when the announcement has not reached subscribers.
 */
export function formatAlertLatency(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || ms < 0) return '';
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const min = Math.floor(s / 60);
  if (min < 60) return s % 60 ? `${min} min ${s % 60} s` : `${min} min`;
  const h = Math.floor(min / 60);
  if (h < 48) return min % 60 ? `${h} h ${min % 60} min` : `${h} h`;
  const d = Math.floor(h / 24);
  return h % 24 ? `${d} d ${h % 24} h` : `${d} d`;
}

export const ALERT_LATENCY_HINT =
  'Alert latency: from the release at the exchange to the first subscriber email accepted by the mail server';
