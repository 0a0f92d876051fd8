import {
  formatDateTime,
  type AnnouncementService,
  type SystemSettings,
  type SystemSettingsBody,
} from '@irp/proto';

/** The announcement sources the service knows (spec section 3), as the select offers them. */
export const ANNOUNCEMENT_SERVICES: readonly { value: AnnouncementService; label: string }[] = [
  { value: 'asx', label: 'ASX' },
  { value: 'asx2', label: 'ASX (second feed)' },
  { value: 'westpac', label: 'Westpac' },
  { value: 'iress', label: 'IRESS' },
  { value: 'mock', label: 'Mock (demo data)' },
];

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
