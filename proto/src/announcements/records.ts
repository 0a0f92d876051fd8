import { z } from 'zod';
import { StockId } from '../common/session';

/** The records the announcements service keeps, as services, the gateway and the web app exchange them. */

export const SendHistoryEntrySchema = z.object({
  timestamp: z.string().datetime(),
  emailAddress: z.string(),
});
export type SendHistoryEntry = z.infer<typeof SendHistoryEntrySchema>;

/** How an announcement came to be stored; only `poll` and `manual` may be sent automatically. */
export const AnnouncementOriginSchema = z.enum(['poll', 'initial-poll', 'reconcile', 'manual']);
export type AnnouncementOrigin = z.infer<typeof AnnouncementOriginSchema>;

/**
 * What automatic sending decided for an announcement (null: not decided yet, or never considered):
 * `requested` went out; `filtered` matched the stock's auto-send filter; `no-channel` no switch chose a
 * channel; `held-hourly` / `held-daily` a system limit held it back (reported to the error email);
 * `not-automatic` it came from an initial poll, a resync, a reconcile or a manual add; `stale` a poll found
 * it long after its release (a stock newly polled, a source catching up after an outage), so investors are
 * not mailed old news.
 */
export const AutoSendStateSchema = z.enum([
  'requested',
  'filtered',
  'no-channel',
  'held-hourly',
  'held-daily',
  'not-automatic',
  'stale',
]);
export type AutoSendState = z.infer<typeof AutoSendStateSchema>;

/**
 * An announcement as the announcements service stores it (spec section 3 without who was mailed), plus what
 * the service adds: ids, origin, file and auto-send state. Its events and replies carry this shape.
 */
export const StoredAnnouncementSchema = z.object({
  id: z.string().uuid(),
  stockId: StockId,
  /** The announcement's public id: the PDF route, the widget and comments name it. */
  sendGuid: z.string().uuid(),
  headline: z.string(),
  /** The headline as first stored, when an edit changed it; null otherwise. */
  headlineOriginal: z.string().nullable(),
  /** Release time (UTC ISO); shown in Sydney time. */
  date: z.string().datetime(),
  priceSensitive: z.boolean(),
  /** Where the document came from: the source's URL (ASX) or the URL given (non-ASX); '' when none. */
  remotePath: z.string(),
  /** The stored PDF's path under DATA_DIR; null when there is no file. */
  localPath: z.string().nullable(),
  /** The gateway path that serves the PDF, or null when there is no stored file. */
  pdfUrl: z.string().nullable(),
  /** Why a document was refused or could not be fetched (kept without a file, flagged); null when fine. */
  fileProblem: z.string().nullable(),
  videoUrl: z.string(),
  videoDescription: z.string(),
  thumbnailPageNum: z.number().int().nullable(),
  /** When a send was last requested (manual or automatic); null when never. */
  sendRequestedAt: z.string().datetime().nullable(),
  numComments: z.number().int(),
  /** Widget openings. */
  hits: z.number().int(),
  deletedOn: z.string().datetime().nullable(),
  origin: AnnouncementOriginSchema,
  autoSend: AutoSendStateSchema.nullable(),
  /** When the service stored it (detection time). */
  createdAt: z.string().datetime(),
});
export type StoredAnnouncement = z.infer<typeof StoredAnnouncementSchema>;

/**
 * Who was mailed an announcement: the email-marketing service's alone (docs/adr/0013), from its sends and
 * deliveries. `sent` once any mail or campaign of it was accepted; `sendHistory` each accepted address (a
 * campaign as its provider's list) with when.
 */
export const AnnouncementDeliveryStateSchema = z.object({
  sent: z.boolean(),
  sendHistory: z.array(SendHistoryEntrySchema),
  /**
   * Alert latency: release time at the source -> the first subscriber mail accepted by SMTP, in ms; null
   * until a send to subscribers has delivered.
   */
  alertLatencyMs: z.number().int().nullable(),
});
export type AnnouncementDeliveryState = z.infer<typeof AnnouncementDeliveryStateSchema>;

/** Nothing mailed yet: the delivery state of an announcement no send of which was accepted. */
export const NOT_DELIVERED: AnnouncementDeliveryState = {
  sent: false,
  sendHistory: [],
  alertLatencyMs: null,
};

/**
 * An announcement as the portal shows it (spec section 3): the stored announcement with its delivery state,
 * composed by the gateway from the two services that own them.
 */
export const AnnouncementSchema = StoredAnnouncementSchema.extend(AnnouncementDeliveryStateSchema.shape);
export type Announcement = z.infer<typeof AnnouncementSchema>;

/** The initial poll (or resync) of a stock: years walked from announcementStartYear to now. */
export const InitialPollProgressSchema = z.object({
  stockId: StockId,
  status: z.enum(['running', 'completed', 'failed']),
  fromYear: z.number().int(),
  toYear: z.number().int(),
  /** The year being read; null before the first. */
  currentYear: z.number().int().nullable(),
  /** Announcements stored by this run so far. */
  found: z.number().int(),
  startedAt: z.string().datetime(),
  completedAt: z.string().datetime().nullable(),
  error: z.string().nullable(),
});
export type InitialPollProgress = z.infer<typeof InitialPollProgressSchema>;

export const AnnouncementServiceSchema = z.enum(['asx', 'asx2', 'westpac', 'iress', 'mock']);
export type AnnouncementService = z.infer<typeof AnnouncementServiceSchema>;

/** System settings (spec section 3). */
export const SystemSettingsSchema = z.object({
  announcementService: AnnouncementServiceSchema,
  errorEmail: z.string(),
  hourlyAutoSendLimit: z.number().int().min(0),
  dailyAutoSendLimit: z.number().int().min(0),
  /** No polling before this time (UTC ISO); null when polling is not disabled. */
  disablePollUntil: z.string().datetime().nullable(),
  /** Browser-automation mode: document links that need a browser are resolved with headless Chromium. */
  useNightmare: z.boolean(),
});
export type SystemSettings = z.infer<typeof SystemSettingsSchema>;

/** File cleanup result (spec section 3). */
export const FileOnDiskSchema = z.object({
  directory: z.string(),
  filename: z.string(),
  size: z.number().int(),
});
export const MissingFileSchema = z.object({
  combinedTicker: z.string(),
  sendGuid: z.string().uuid(),
  headline: z.string(),
  date: z.string().datetime(),
  localPath: z.string(),
});
export const DuplicateFilesSchema = z.object({
  /** The content's SHA-256. */
  sha256: z.string(),
  size: z.number().int(),
  files: z.array(FileOnDiskSchema),
});
export const FileCleanupSchema = z.object({
  missingOnDisk: z.array(MissingFileSchema),
  duplicates: z.array(DuplicateFilesSchema),
  onDiskButNotInDatabase: z.array(FileOnDiskSchema),
});
export type FileCleanup = z.infer<typeof FileCleanupSchema>;

/** Disk report item (spec section 3). */
export const DiskReportItemSchema = z.object({
  ticker: z.string(),
  diskSpace: z.number().int(),
  website: z.string(),
  apiKey: z.string().nullable(),
  /** When the reports service last used the stock in a report; null until that service reports it. */
  lastUsedInReport: z.string().datetime().nullable(),
});
export const DiskReportSchema = z.array(DiskReportItemSchema);
export type DiskReportItem = z.infer<typeof DiskReportItemSchema>;

/** Reconcile (spec section 3): per ticker, what the source has in the last N days that we do not. */
export const ReconcileNewAnnouncementSchema = z.object({
  date: z.string().datetime(),
  headline: z.string(),
  priceSensitive: z.boolean(),
});
export const ReconcileTickerSchema = z.object({
  ticker: z.string(),
  newAnnouncements: z.array(ReconcileNewAnnouncementSchema),
});
export const ReconcileSchema = z.object({
  id: z.string().uuid(),
  numDays: z.number().int(),
  status: z.enum(['running', 'completed', 'failed', 'applied']),
  /** Stocks checked so far of `total`: the progress the screen shows. */
  checked: z.number().int(),
  total: z.number().int(),
  results: z.array(ReconcileTickerSchema),
  /** How many announcements `apply` stored; null until applied. */
  applied: z.number().int().nullable(),
  error: z.string().nullable(),
  startedAt: z.string().datetime(),
  completedAt: z.string().datetime().nullable(),
});
export type Reconcile = z.infer<typeof ReconcileSchema>;

/**
 * A stock's announcements are read a page at a time (common/paging.ts): 20 years of a busy stock are
 * thousands. The stock page and the Announcements tab show the newest ANNOUNCEMENT_PAGE_SIZE at once and load
 * the older ones after it, ANNOUNCEMENT_PAGE_MAX at a time.
 */
export const ANNOUNCEMENT_PAGE_SIZE = 200;
/** The largest page a request may ask for. */
export const ANNOUNCEMENT_PAGE_MAX = 1_000;
