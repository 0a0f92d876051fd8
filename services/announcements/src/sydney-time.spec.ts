import { parseSydneyDateTime } from './sydney-time';

describe('parseSydneyDateTime', () => {
  it("reads the spec's format in Sydney time, daylight saving included", () => {
    expect(parseSydneyDateTime('22 Mar 2025 8:50 AM')?.toISOString()).toBe('2025-03-21T21:50:00.000Z');
    expect(parseSydneyDateTime('22 Jul 2025 8:50 PM')?.toISOString()).toBe('2025-07-22T10:50:00.000Z');
  });

  it('accepts lower case, no space before AM/PM, extra spaces and ISO timestamps', () => {
    expect(parseSydneyDateTime('22 mar 2025 8:50 pm')?.toISOString()).toBe('2025-03-22T09:50:00.000Z');
    expect(parseSydneyDateTime(' 22 Mar  2025 8:50AM ')?.toISOString()).toBe('2025-03-21T21:50:00.000Z');
    expect(parseSydneyDateTime('2025-03-22T08:50:00+11:00')?.toISOString()).toBe('2025-03-21T21:50:00.000Z');
  });

  it('refuses what is not a date', () => {
    expect(parseSydneyDateTime('garbage')).toBeNull();
    expect(parseSydneyDateTime('31 Feb 2025 1:00 PM')).toBeNull();
    expect(parseSydneyDateTime('')).toBeNull();
  });
});
