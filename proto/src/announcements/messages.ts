import { z } from 'zod';
import { nextPageField, pageRequestFields } from '../common/paging';
import { StockId } from '../common/session';
import { ActorSchema } from '../stocks/stock';
import {
  ANNOUNCEMENT_PAGE_MAX,
  StoredAnnouncementSchema,
  AnnouncementServiceSchema,
  DiskReportSchema,
  FileCleanupSchema,
  InitialPollProgressSchema,
  ReconcileSchema,
  SystemSettingsSchema,
} from './records';

/**
 * Another service's projection of the announcements (the reports service's announcement days): the
 * headlines of these stocks' announcements released since `since`, deleted ones flagged. Events carry new
 * announcements; this carries those stored before the projecting service first ran, and edits and deletes,
 * which publish no event. No actor: it answers headlines and times only, to services.
 */
export const AnnouncementHeadlinesRequestSchema = z.object({
  stockIds: z.array(StockId).min(1).max(500),
  since: z.string().datetime(),
});
export const AnnouncementHeadlinesReplySchema = z.object({
  announcements: z.array(
    z.object({
      id: z.string(),
      stockId: StockId,
      /** The release time. */
      date: z.string().datetime(),
      headline: z.string(),
      priceSensitive: z.boolean(),
      deleted: z.boolean(),
    }),
  ),
});

/**
 * Request/reply messages of the announcements service. Stocks are named by combinedTicker (the service
 * keeps its own projection of the stocks from `stock.*` events); the gateway has checked roles already.
 */

const combinedTicker = z.string().min(1).max(40);

export const ListAnnouncementsRequestSchema = z.object({
  /** The service lists a stock's announcements only for a holder of an announcement role on it. */
  actor: ActorSchema,
  combinedTicker,
  /** Deleted announcements are listed for staff (struck through) but not for the widget. */
  includeDeleted: z.boolean().default(true),
  /** The stock whose role the gateway checked: a ticker naming another stock here is not found. */
  checkedStockId: StockId.optional(),
  /** Newest first: a page (common/paging.ts) or, without `limit`, every one. */
  ...pageRequestFields(ANNOUNCEMENT_PAGE_MAX),
});
export const AnnouncementListReplySchema = z.object({
  announcements: z.array(StoredAnnouncementSchema),
  /** The stock's latest initial poll or resync; null when none ran. */
  initialPoll: InitialPollProgressSchema.nullable(),
  /** Where the next page starts (`after`), or null when this page was the last. */
  next: nextPageField,
});

/** The latest initial poll's status of many stocks at once (the gateway composes completedInitialPoll). */
export const InitialPollStatusesRequestSchema = z.object({ stockIds: z.array(StockId).max(100_000) });
export const InitialPollStatusesReplySchema = z.object({
  /** By stock id; a stock without any run is absent. */
  statuses: z.record(StockId, InitialPollProgressSchema.shape.status),
});

/** Largest chunk of an upload carried by one message (base64 of 768 KiB stays well inside the broker's limit). */
export const UPLOAD_CHUNK_BYTES = 768 * 1024;

/**
 * One chunk of an uploaded file (claim check: a PDF of up to 20 MB does not fit one Kafka message). The
 * chunks of an upload are staged in the service's database; the save names the upload.
 */
export const UploadPartRequestSchema = z.object({
  uploadId: z.string().uuid(),
  index: z.number().int().min(0).max(10_000),
  /** Base64 of at most UPLOAD_CHUNK_BYTES. */
  data: z.string().max(Math.ceil(UPLOAD_CHUNK_BYTES / 3) * 4),
});
export const UploadPartReplySchema = z.object({ uploadId: z.string().uuid(), received: z.number().int() });

/**
 * Add or edit an announcement (spec sections 2, 5: POST /api/Announcement/save). An edit names the
 * announcement by `sendGuid`, or by the spec's existingAnnouncementHeadline + existingAnnouncementDate.
 * The rules (PDF for ASX, date format, headline) are the service's, with the spec's messages.
 */
export const SaveAnnouncementRequestSchema = z.object({
  actor: ActorSchema,
  combinedTicker,
  sendGuid: z.string().uuid().optional(),
  existingAnnouncementHeadline: z.string().max(1000).optional(),
  existingAnnouncementDate: z.string().max(100).optional(),
  headline: z.string().max(1000),
  /** As typed, like '22 Mar 2025 8:50 AM' (Sydney time), or ISO 8601. */
  date: z.string().max(100),
  priceSensitive: z.boolean(),
  remotePath: z.string().max(2000),
  videoUrl: z.string().max(2000),
  videoDescription: z.string().max(4000),
  thumbnailPageNum: z.number().int().min(1).max(10_000).nullable(),
  /** The staged upload of the PDF (UploadPart), when a file was sent. */
  upload: z
    .object({ uploadId: z.string().uuid(), parts: z.number().int().min(1), fileName: z.string().max(300) })
    .optional(),
});
export const AnnouncementReplySchema = z.object({ announcement: StoredAnnouncementSchema });

/** Delete, send, confirmation email: the announcement by its sendGuid. */
const announcementRef = z.object({ actor: ActorSchema, combinedTicker, sendGuid: z.string().uuid() });

export const DeleteAnnouncementRequestSchema = announcementRef;

export const SendAnnouncementRequestSchema = announcementRef.extend({
  /** Needed to send an announcement already sent (or already requested). */
  override: z.boolean(),
});

export const SendConfirmationRequestSchema = announcementRef;
export const SendConfirmationReplySchema = z.object({
  announcement: StoredAnnouncementSchema,
  recipients: z.array(z.string()),
});

export const ResyncRequestSchema = z.object({ actor: ActorSchema, combinedTicker });
export const ResyncReplySchema = z.object({ initialPoll: InitialPollProgressSchema });

/** Reads a stored PDF in chunks (the gateway streams them to the browser). */
export const ReadFileRequestSchema = z.object({
  sendGuid: z.string().uuid(),
  offset: z.number().int().min(0),
  length: z.number().int().min(1).max(UPLOAD_CHUNK_BYTES),
});
export const ReadFileReplySchema = z.object({
  /** Base64 of the bytes read. */
  data: z.string(),
  size: z.number().int(),
  fileName: z.string(),
  stockId: z.string().uuid(),
});

/** The widget API: a stock's announcements (not deleted) and opening one (counts a view). */
export const WidgetAnnouncementsRequestSchema = z.object({ stockId: z.string().uuid() });
export const WidgetOpenAnnouncementRequestSchema = z.object({
  stockId: z.string().uuid(),
  sendGuid: z.string().uuid(),
});

export const GetSystemSettingsRequestSchema = z.object({}).passthrough();
export const SystemSettingsReplySchema = z.object({ settings: SystemSettingsSchema });
export const SaveSystemSettingsRequestSchema = z.object({
  actor: ActorSchema,
  settings: z.object({
    announcementService: AnnouncementServiceSchema,
    errorEmail: z.string().max(500),
    hourlyAutoSendLimit: z.number().int().min(0).max(1_000_000),
    dailyAutoSendLimit: z.number().int().min(0).max(1_000_000),
    /** Sydney time like '22 Mar 2025 8:50 AM', ISO 8601, or '' / null for none. */
    disablePollUntil: z.string().max(100).nullable(),
    useNightmare: z.boolean(),
  }),
});

export const FileCleanupRequestSchema = z.object({}).passthrough();
export const FileCleanupReplySchema = FileCleanupSchema;

export const DiskReportRequestSchema = z.object({ includeBillable: z.boolean() });
export const DiskReportReplySchema = z.object({ items: DiskReportSchema });

export const ReconcileRunRequestSchema = z.object({
  actor: ActorSchema,
  numDays: z.number().int().min(1).max(90),
});
export const ReconcileGetRequestSchema = z.object({ id: z.string().uuid() });
export const ReconcileApplyRequestSchema = z.object({ actor: ActorSchema, id: z.string().uuid() });
export const ReconcileLastRequestSchema = z.object({}).passthrough();
export const ReconcileReplySchema = z.object({ reconcile: ReconcileSchema });
export const ReconcileLastReplySchema = z.object({ reconcile: ReconcileSchema.nullable() });
