import {
  daysBetween,
  formatDate,
  formatDateTime,
  formatInvoiceDate,
  formatIsoDate,
  previousCalendarMonth,
} from './dates';

describe('dates in Sydney time (spec section 9)', () => {
  it('formats a time like 22 Mar 2025 8:50 AM', () => {
    expect(formatDateTime('2025-03-21T21:50:00Z')).toBe('22 Mar 2025 8:50 AM');
    expect(formatDateTime('2025-06-01T04:05:00Z')).toBe('1 Jun 2025 2:05 PM');
  });
  it('formats a date and an invoice date', () => {
    expect(formatDate('2025-03-21T21:50:00Z')).toBe('22 Mar 2025');
    expect(formatInvoiceDate('2024-01-05T03:00:00Z')).toBe('05Jan24');
  });
  it('gives the Sydney calendar date as yyyy-mm-dd (date inputs)', () => {
    expect(formatIsoDate('2025-03-21T21:50:00Z')).toBe('2025-03-22');
    expect(formatIsoDate('2025-12-31T12:00:00Z')).toBe('2025-12-31');
    expect(formatIsoDate('')).toBe('');
  });
  it('gives empty text for missing or bad values', () => {
    expect(formatDateTime(null)).toBe('');
    expect(formatDate('not a date')).toBe('');
  });
  it('counts whole days', () => {
    expect(daysBetween('2024-01-01T00:00:00Z', new Date('2024-04-01T12:00:00Z'))).toBe(91);
    expect(daysBetween('2030-01-01T00:00:00Z', new Date('2024-01-01T00:00:00Z'))).toBe(0);
  });
});

describe('previousCalendarMonth', () => {
  it('is the month before the current one in Sydney (January gives December)', () => {
    expect(previousCalendarMonth(new Date('2026-11-28T02:00:00Z'))).toEqual({
      startDate: '2026-10-01',
      endDate: '2026-10-31',
    });
    expect(previousCalendarMonth(new Date('2026-01-10T00:00:00Z'))).toEqual({
      startDate: '2025-12-01',
      endDate: '2025-12-31',
    });
    // 31 March 23:00 UTC is already 1 April in Sydney.
    expect(previousCalendarMonth(new Date('2026-03-31T23:00:00Z'))).toEqual({
      startDate: '2026-03-01',
      endDate: '2026-03-31',
    });
  });
});
