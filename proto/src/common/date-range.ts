import { z } from 'zod';
import { currentMonthRange } from './dates';

/** The dates a dashboard asks about (ISO dates; the staff dashboard's filter, default the current month). */
export interface DateRange {
  startDate: string;
  endDate: string;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?$/;

/** An ISO date (2026-01-31) or date-time, as the dashboard filter sends it. */
export const IsoDateTextSchema = z
  .string()
  .trim()
  .refine((v) => ISO_DATE.test(v) && !Number.isNaN(Date.parse(v)), {
    message: 'must be an ISO date like 2026-01-31',
  });

/** `?startDate&endDate`: each optional (default the current month in Sydney time), start not after end. */
export const DateRangeQuerySchema = z
  .object({
    startDate: IsoDateTextSchema.optional().describe('ISO date; default the first of the current month'),
    endDate: IsoDateTextSchema.optional().describe('ISO date; default the last of the current month'),
  })
  .transform((q, ctx): DateRange => {
    const month = currentMonthRange();
    const range = { startDate: q.startDate ?? month.startDate, endDate: q.endDate ?? month.endDate };
    if (Date.parse(range.startDate) > Date.parse(range.endDate)) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ['startDate'],
        message: `must not be after endDate (${range.endDate})`,
      });
      return z.NEVER;
    }
    return range;
  });
/** What a caller sends: either date may be left out (or empty in the web app's filter state). */
export type DateRangeQuery = z.input<typeof DateRangeQuerySchema>;
