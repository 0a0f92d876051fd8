import { describe, expect, it } from 'vitest';
import {
  formatBytes,
  formatMegabytes,
  settingsBody,
  settingsChanged,
  settingsFormValues,
  settingsProblem,
} from './settingsForm';

const SETTINGS = {
  announcementService: 'asx' as const,
  errorEmail: 'errors@example.com',
  hourlyAutoSendLimit: 0,
  dailyAutoSendLimit: 100,
  disablePollUntil: null,
  useNightmare: true,
};

describe('system settings form', () => {
  it('round-trips the settings, limits as numbers and no date as null', () => {
    const values = settingsFormValues(SETTINGS);
    expect(values).toMatchObject({
      hourlyAutoSendLimit: '0',
      dailyAutoSendLimit: '100',
      disablePollUntil: '',
    });
    expect(settingsBody(values)).toEqual(SETTINGS);
    expect(settingsChanged(values, { ...values, errorEmail: ' errors@example.com ' })).toBe(false);
    expect(settingsChanged(values, { ...values, useNightmare: false })).toBe(true);
  });

  it('wants whole numbers of 0 or more as limits', () => {
    const values = settingsFormValues(SETTINGS);
    expect(settingsProblem(values)).toBeNull();
    expect(settingsProblem({ ...values, hourlyAutoSendLimit: '' })).toBe(
      'Hourly auto-send limit must be a whole number of 0 or more',
    );
    expect(settingsProblem({ ...values, dailyAutoSendLimit: '1.5' })).toBe(
      'Daily auto-send limit must be a whole number of 0 or more',
    );
  });

  it('shows sizes for people', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(2048)).toBe('2.0 KB');
    expect(formatBytes(3 * 1024 * 1024)).toBe('3.0 MB');
    expect(formatMegabytes(0)).toBe('0.0 MB');
    expect(formatMegabytes(5_452_595)).toBe('5.2 MB');
  });
});
