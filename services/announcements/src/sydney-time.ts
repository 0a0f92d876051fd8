import { DateTime } from 'luxon';
import { DISPLAY_TIME_ZONE } from '@irp/proto';

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
