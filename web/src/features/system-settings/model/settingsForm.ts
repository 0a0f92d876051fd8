import {
  formatDateTime,
  type AnnouncementService,
  type SystemSettings,
  type SystemSettingsBody,
} from '@irp/proto';

/**
 * westpac and iress publish no feed the portal knows: the announcements service reads them with the ASX
 * per-company client (services/announcements/src/sources/unconfigured.source.ts), so their base URL must
 * serve that shape. Said where they are chosen, so no one picks one expecting the vendor's own feed.
 */
const asxShapedProxy = (name: string, variable: string) =>
  `${name} publishes no feed the portal knows: ${variable} must serve the ASX per-company feed, e.g. a proxy built to that shape ` +
  '(GET /asx/1/company/{CODE}/announcements answering data[] of id, document_release_date, header, market_sensitive and url, ' +
  'and paging_next_url for older pages), each url a PDF or ASX terms page on that host or DOCUMENT_HOSTS. ' +
  `Saving is refused while ${variable} is not set.`;

/**
 * The announcement sources the service knows (spec section 3), as the select offers them, each with what it
 * needs to work (shown under the select when chosen).
 */
export const ANNOUNCEMENT_SERVICES: readonly { value: AnnouncementService; label: string; hint: string }[] = [
  { value: 'asx', label: 'ASX', hint: 'The ASX per-company feed at ASX_BASE_URL.' },
  {
    value: 'asx2',
    label: 'ASX (second feed)',
    hint: 'The whole-market feed at ASX2_BASE_URL, with history from the ASX per-company feed at ASX_BASE_URL; both must be set.',
  },
  {
    value: 'westpac',
    label: 'Westpac (ASX-shaped proxy)',
    hint: asxShapedProxy('Westpac', 'WESTPAC_BASE_URL'),
  },
  { value: 'iress', label: 'IRESS (ASX-shaped proxy)', hint: asxShapedProxy('IRESS', 'IRESS_BASE_URL') },
  {
    value: 'mock',
    label: 'Mock (demo data)',
    hint: 'Generated demo announcements, no network; refused in production.',
  },
];

/** What the chosen source needs to work. */
export const announcementServiceHint = (value: AnnouncementService): string =>
  ANNOUNCEMENT_SERVICES.find((service) => service.value === value)?.hint ?? '';

export const isAnnouncementService = (value: string): value is AnnouncementService =>
  ANNOUNCEMENT_SERVICES.some((service) => service.value === value);

/** What the form holds: numbers and the date as typed. */
export interface SettingsFormValues {
  announcementService: AnnouncementService;
  errorEmail: string;
  hourlyAutoSendLimit: string;
  dailyAutoSendLimit: string;
  /** Sydney time like '22 Mar 2025 8:50 AM' (the server parses that format); '' for none. */
  disablePollUntil: string;
  useNightmare: boolean;
}

export const LIMIT_LABELS = {
  hourlyAutoSendLimit: 'Hourly auto-send limit',
  dailyAutoSendLimit: 'Daily auto-send limit',
} as const;

export function settingsFormValues(settings: SystemSettings): SettingsFormValues {
  return {
    announcementService: settings.announcementService,
    errorEmail: settings.errorEmail,
    hourlyAutoSendLimit: String(settings.hourlyAutoSendLimit),
    dailyAutoSendLimit: String(settings.dailyAutoSendLimit),
    disablePollUntil: formatDateTime(settings.disablePollUntil),
    useNightmare: settings.useNightmare,
  };
}

export function settingsChanged(saved: SettingsFormValues, values: SettingsFormValues): boolean {
  return (Object.keys(saved) as (keyof SettingsFormValues)[]).some((key) => {
    const a = saved[key];
    const b = values[key];
    return typeof a === 'string' && typeof b === 'string' ? a.trim() !== b.trim() : a !== b;
  });
}

const isLimit = (text: string): boolean => /^\d+$/.test(text.trim());

/** The limits must be whole numbers (spec section 5: numeric inputs convert to numbers); null when fine. */
export function settingsProblem(values: SettingsFormValues): string | null {
  for (const field of ['hourlyAutoSendLimit', 'dailyAutoSendLimit'] as const) {
    if (!isLimit(values[field])) return `${LIMIT_LABELS[field]} must be a whole number of 0 or more`;
  }
  return null;
}

/** POST /api/admin/systemSettings: every field, limits as numbers, no date as null. */
export function settingsBody(values: SettingsFormValues): SystemSettingsBody {
  return {
    announcementService: values.announcementService,
    errorEmail: values.errorEmail.trim(),
    hourlyAutoSendLimit: Number(values.hourlyAutoSendLimit.trim()),
    dailyAutoSendLimit: Number(values.dailyAutoSendLimit.trim()),
    disablePollUntil: values.disablePollUntil.trim() || null,
    useNightmare: values.useNightmare,
  };
}

/** A file size for people: bytes, KB or MB (1024-based). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return formatMegabytes(bytes);
}

/** Disk space in MB, one decimal (the disk report's column). */
export const formatMegabytes = (bytes: number): string => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
