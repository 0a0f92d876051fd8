import { currentMonthRange } from '@irp/proto';
import { z } from 'zod';
import { DateRange } from './dashboard-contributor';

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?$/;

/** An ISO date (2026-01-31) or date-time, as the dashboard filter sends it. */
export const isoDateText = z
  .string()
  .trim()
  .refine((v) => ISO_DATE.test(v) && !Number.isNaN(Date.parse(v)), {
    message: 'must be an ISO date like 2026-01-31',
  });

/** The current month in Sydney time (spec: the dashboard's dates default to the current month). */
export const currentMonth = (now: Date = new Date()): DateRange => currentMonthRange(now);

/** `?startDate&endDate`: each optional (default the current month), start not after end. */
export const DateRangeQuerySchema = z
  .object({ startDate: isoDateText.optional(), endDate: isoDateText.optional() })
  .transform((q, ctx): DateRange => {
    const month = currentMonth();
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
