import { describe, expect, it } from 'vitest';
import {
  deliverabilityChartOptions,
  deliverabilitySummary,
  latencyText,
  overComplaintLimit,
  percentText,
} from './deliverability';

const week = {
  days: [
    { day: '2026-12-01', sent: 1000, accepted: 990, bounced: 10, complained: 2, unsubscribed: 3 },
    { day: '2026-12-02', sent: 0, accepted: 0, bounced: 1, complained: 0, unsubscribed: 0 },
  ],
  totals: { sent: 1000, accepted: 990, bounced: 11, complained: 2, unsubscribed: 3 },
  complaintRate: 2 / 990,
  alerts: [],
};

describe('the deliverability panel', () => {
  it('sums the days up with the complaint rate against the 0.3% limit', () => {
    expect(deliverabilitySummary(week, 30)).toBe(
      'Last 30 days: 1,000 sent, 990 accepted, 11 bounced, 2 complaints (0.2% of accepted; the limit is 0.3%), 3 unsubscribed',
    );
    expect(overComplaintLimit(week)).toBe(false);
    expect(overComplaintLimit({ ...week, complaintRate: 0.004 })).toBe(true);
    expect(overComplaintLimit({ ...week, complaintRate: null })).toBe(false);
    expect(percentText(null)).toBe('–');
    expect(latencyText(850)).toBe('850 ms');
    expect(latencyText(1234)).toBe('1.2 s');
  });

  it('charts each day as columns and the daily complaint rate on a percent axis with the limit drawn', () => {
    const options = deliverabilityChartOptions(week);
    expect((options.xAxis as { categories: string[] }).categories).toEqual(['1 Dec', '2 Dec']);
    const series = options.series as Array<{ name: string; type: string; data: Array<number | null> }>;
    expect(series.map((s) => [s.name, s.type])).toEqual([
      ['Accepted', 'column'],
      ['Bounced', 'column'],
      ['Complaints', 'column'],
      ['Unsubscribed', 'column'],
      ['Complaint rate', 'line'],
    ]);
    expect(series[0]!.data).toEqual([990, 0]);
    // 2 of 990 accepted: 0.202%; a day with nothing accepted has no rate.
    expect(series[4]!.data).toEqual([0.202, null]);
    const [, rateAxis] = options.yAxis as Array<{ plotLines?: Array<{ value: number }> }>;
    expect(rateAxis!.plotLines![0]!.value).toBe(0.3);
  });
});
