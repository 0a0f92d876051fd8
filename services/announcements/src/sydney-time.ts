import { DateTime } from 'luxon';
import { AnnouncementMessages, DISPLAY_TIME_ZONE } from '@irp/proto';

/** Formats people type dates in (spec section 9: '22 Mar 2025 8:50 AM', Sydney time), most specific first. */
const FORMATS = [
  'd MMM yyyy h:mm a',
  'd MMM yyyy h:mma',
  'd MMM yyyy H:mm',
  'd MMMM yyyy h:mm a',
  'd MMM yyyy',
  'd MMMM yyyy',
  'yyyy-MM-dd HH:mm',
  'yyyy-MM-dd',
];

/**
 * Parses a date as a person types it in Sydney time ('22 Mar 2025 8:50 AM') or an ISO 8601 timestamp;
 * null when it is neither (the caller answers 'Unable to parse date {value}').
 */
export function parseSydneyDateTime(value: string): Date | null {
  const text = value.trim().replace(/\s+/g, ' ');
  if (!text) return null;
  if (/^\d{4}-\d{2}-\d{2}T/.test(text)) {
    const iso = DateTime.fromISO(text, { zone: DISPLAY_TIME_ZONE });
    return iso.isValid ? iso.toJSDate() : null;
  }
  for (const format of FORMATS) {
    const parsed = DateTime.fromFormat(text, format, { zone: DISPLAY_TIME_ZONE, locale: 'en-US' });
    if (parsed.isValid) return parsed.toJSDate();
  }
  return null;
}

/**
 * The years a date typed for the business may fall in (a release date, polling paused until), as the stocks
 * service's billing dates. A year-9999 or year-0 date parsed and was stored (year 0 then failed as a 500: no
 * ISO text for its event or reply), found by the fuzz suite's domain values (issue 34).
 */
export const DATE_YEARS = { first: 1990, last: 2100 } as const;

/** A typed date (as parseSydneyDateTime reads it) in DATE_YEARS, or why not: the spec's message, and the years. */
export function typedDate(value: string): { date: Date } | { problem: string } {
  const date = parseSydneyDateTime(value);
  if (!date) return { problem: AnnouncementMessages.unparsableDate(value) };
  const { year } = DateTime.fromJSDate(date, { zone: DISPLAY_TIME_ZONE });
  if (year < DATE_YEARS.first || year > DATE_YEARS.last)
    return {
      problem: `${AnnouncementMessages.unparsableDate(value)}: the year must be from ${DATE_YEARS.first} to ${DATE_YEARS.last}`,
    };
  return { date };
}
