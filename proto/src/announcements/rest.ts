import { z } from 'zod';
import { PageCursorSchema } from '../common/paging';
import { queryFlag } from '../common/rest';
import {
  AnnouncementSchema,
  InitialPollProgressSchema,
  ReconcileSchema,
  SystemSettingsSchema,
} from './records';

/**
 * REST shapes of the announcement routes (docs/api/announcements.md): what the gateway validates with,
 * answers and documents at /api/docs, and what the web app is typed with. Shapes only; the rules and their
 * messages are the announcements service's.
 */

// ---------------------------------------------------------------------------------------------------
// Requests

/** Multipart text fields arrive as strings; a checkbox as 'true'/'false' (or 'on'). */
const formBoolean = z
  .union([z.boolean(), z.enum(['true', 'false', 'on', 'off', '1', '0', ''])])
  .optional()
  .transform((v) => v === true || v === 'true' || v === 'on' || v === '1');
const formText = (max: number) =>
  z
    .string({ invalid_type_error: 'must be text' })
    .max(max, `must be at most ${max} characters`)
    .optional()
    .transform((v) => v ?? '');

/** POST /api/Announcement/save/{combinedTicker}: the multipart form's text fields (the PDF is `file`). */
export const SaveAnnouncementFormSchema = z.object({
  headline: formText(1000),
  date: formText(100),
  remotePath: formText(2000),
  existingAnnouncementHeadline: formText(1000),
  existingAnnouncementDate: formText(100),
  priceSensitive: formBoolean,
  videoUrl: formText(2000),
  videoDescription: formText(4000),
  thumbnailPageNum: z
    .union([z.number(), z.string()])
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '' || v === null) return null;
      const n = Number(v);
      if (!Number.isInteger(n) || n < 1 || n > 10_000) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'must be a page number from 1' });
        return z.NEVER;
      }
      return n;
    }),
  /** Names the announcement being edited (this portal's addition; the existing headline and date also do). */
  sendGuid: z
    .string()
    .uuid('must be an announcement id')
    .optional()
    .or(z.literal('').transform(() => undefined)),
});
export type SaveAnnouncementForm = z.input<typeof SaveAnnouncementFormSchema>;

/**
 * Delete, send and confirmation email send "the announcement" (spec section 7); the server reads its
 * sendGuid and ignores the rest (it never trusts a client's copy of the fields).
 */
export const AnnouncementBodySchema = z
  .object({ sendGuid: z.string({ required_error: 'Required' }).uuid('must be an announcement id') })
  .passthrough();
export type AnnouncementBody = z.input<typeof AnnouncementBodySchema>;

/** `?sendOverride` of the send route: present (any value but false, 0, no, off in any case) means override. */
export const SendOverrideQuerySchema = z.object({ sendOverride: queryFlag() });

export const ResyncQuerySchema = z.object({
  ticker: z.string({ required_error: 'Required' }).trim().min(1, 'Required').max(40),
});

export const SystemSettingsBodySchema = z.object({
  announcementService: z.enum(['asx', 'asx2', 'westpac', 'iress', 'mock'], {
    errorMap: () => ({ message: 'must be one of asx, asx2, westpac, iress, mock' }),
  }),
  errorEmail: z
    .string()
    .max(500)
    .nullish()
    .transform((v) => v ?? ''),
  hourlyAutoSendLimit: z.coerce
    .number({ invalid_type_error: 'must be a number' })
    .int('must be a whole number')
    .min(0, 'must be 0 or more'),
  dailyAutoSendLimit: z.coerce
    .number({ invalid_type_error: 'must be a number' })
    .int('must be a whole number')
    .min(0, 'must be 0 or more'),
  disablePollUntil: z
    .string()
    .max(100)
    .nullish()
    .transform((v) => (v && v.trim() ? v.trim() : null)),
  useNightmare: z.boolean({ invalid_type_error: 'must be true or false' }),
});
export type SystemSettingsBody = z.input<typeof SystemSettingsBodySchema>;

/** `?includeBillable`: as `?sendOverride` (true, True, 1 or the bare flag include them). */
export const DiskReportQuerySchema = z.object({ includeBillable: queryFlag() });

export const ReconcileRunQuerySchema = z.object({
  numDays: z.coerce
    .number({ invalid_type_error: 'must be a number of days' })
    .int('must be a whole number of days')
    .min(1, 'must be from 1 to 90 days')
    .max(90, 'must be from 1 to 90 days')
    .default(7),
});

export const ReconcileIdParamsSchema = z.object({ id: z.string().uuid('must be a reconcile id') });

export const SendGuidParamsSchema = z.object({ sendGuid: z.string().uuid('must be an announcement id') });

export const SendEmailBodySchema = z
  .object({ email: z.string({ required_error: 'Required' }).max(500) })
  .strict();

/** The widget's announcement opening: `?apiKey=&sendGuid=`. */
/** GET /api/Announcement/list: the page after `after` (a previous page's `next`); without it the newest. */
export const AnnouncementListQuerySchema = z.object({ after: PageCursorSchema.optional() });

export const WidgetAnnouncementQuerySchema = z.object({
  sendGuid: z.string().uuid('must be an announcement id'),
});

// ---------------------------------------------------------------------------------------------------
// Responses

/** Save, delete, send: the announcement as stored. Errors carry the one error body (errorMessage). */
export const AnnouncementChangeResponseSchema = z.object({
  success: z.literal(true),
  announcement: AnnouncementSchema,
  errorMessage: z.null(),
});
export type AnnouncementChangeResponse = z.infer<typeof AnnouncementChangeResponseSchema>;

/** A stock's announcements, newest first, with its latest initial poll (GET /api/Announcement/list). */
export const AnnouncementListSchema = z.object({
  announcements: z.array(AnnouncementSchema),
  initialPoll: InitialPollProgressSchema.nullable(),
  /** The next page's `after`, or null when this page holds the oldest (ANNOUNCEMENT_PAGE_SIZE a page). */
  next: PageCursorSchema.nullable(),
});
export type AnnouncementList = z.infer<typeof AnnouncementListSchema>;

export const SendConfirmationResponseSchema = z.object({
  success: z.literal(true),
  recipients: z.array(z.string()),
  errorMessage: z.null(),
});

export const ResyncResponseSchema = z.object({
  success: z.literal(true),
  initialPoll: InitialPollProgressSchema,
});

export const SystemSettingsResponseSchema = SystemSettingsSchema;
export const SystemSettingsSavedSchema = z.object({
  success: z.literal(true),
  settings: SystemSettingsSchema,
  errorMessage: z.null(),
});

export const ReconcileResponseSchema = ReconcileSchema;
export const ReconcileLastResponseSchema = ReconcileSchema.nullable();

/** What a company's IR site sees of an announcement (widget API). */
export const WidgetAnnouncementSchema = z.object({
  sendGuid: z.string().uuid(),
  headline: z.string(),
  date: z.string().datetime(),
  priceSensitive: z.boolean(),
  /** Absolute path on this portal that serves the PDF, or null (non-ASX: see remotePath). */
  pdfUrl: z.string().nullable(),
  remotePath: z.string(),
  videoUrl: z.string(),
  videoDescription: z.string(),
  thumbnailPageNum: z.number().int().nullable(),
  numComments: z.number().int(),
  hits: z.number().int(),
});
export type WidgetAnnouncement = z.infer<typeof WidgetAnnouncementSchema>;
export const WidgetAnnouncementListSchema = z.object({ announcements: z.array(WidgetAnnouncementSchema) });
export const WidgetAnnouncementReplySchema = z.object({ announcement: WidgetAnnouncementSchema });
