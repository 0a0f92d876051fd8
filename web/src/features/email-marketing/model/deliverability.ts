import { COMPLAINT_RATE_LIMIT, type Deliverability } from '@irp/proto';
import type { Options } from 'highcharts';

const counts = new Intl.NumberFormat('en-AU');

/** A rate as the panel shows it: '0.12%'; '–' when there is none. */
export const percentText = (rate: number | null): string =>
  rate === null ? '–' : `${(rate * 100).toLocaleString('en-AU', { maximumFractionDigits: 2 })}%`;

/** The line under the panel's title: the days' totals and the complaint rate against the limit. */
export function deliverabilitySummary(d: Deliverability, days: number): string {
  const t = d.totals;
  return (
    `Last ${days} days: ${counts.format(t.sent)} sent, ${counts.format(t.accepted)} accepted, ` +
    `${counts.format(t.bounced)} bounced, ${counts.format(t.complained)} complaints ` +
    `(${percentText(d.complaintRate)} of accepted; the limit is ${percentText(COMPLAINT_RATE_LIMIT)}), ` +
    `${counts.format(t.unsubscribed)} unsubscribed`
  );
}

/** Whether the complaint rate is over the large providers' limit (they reject the sender's mail above it). */
export const overComplaintLimit = (d: Deliverability): boolean =>
  d.complaintRate !== null && d.complaintRate > COMPLAINT_RATE_LIMIT;

/** '1.2 s', '850 ms'. */
export const latencyText = (ms: number): string =>
  ms < 1000 ? `${ms} ms` : `${(ms / 1000).toLocaleString('en-AU', { maximumFractionDigits: 1 })} s`;

/** '2 Dec' from '2026-12-02'. */
const dayLabel = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString('en-AU', {
    day: 'numeric',
    month: 'short',
    timeZone: 'UTC',
  });

/**
 * The panel's chart: per day the accepted mails, bounces, complaints and unsubscribes as columns, and each
 * day's complaint rate as a line on a percent axis with the 0.3% limit drawn across it.
 */
export function deliverabilityChartOptions(d: Deliverability): Options {
  const rate = d.days.map((x) =>
    x.accepted ? Math.round((x.complained / x.accepted) * 100_000) / 1000 : null,
  );
  return {
    chart: { height: 320, spacingLeft: 4, spacingRight: 4 },
    title: { text: 'Mail per day' },
    credits: { enabled: false },
    xAxis: { categories: d.days.map((x) => dayLabel(x.day)), crosshair: true },
    yAxis: [
      { title: { text: 'Mails' }, allowDecimals: false, min: 0 },
      {
        title: { text: 'Complaint rate (%)' },
        opposite: true,
        min: 0,
        softMax: COMPLAINT_RATE_LIMIT * 100 * 1.5,
        plotLines: [
          {
            value: COMPLAINT_RATE_LIMIT * 100,
            color: '#e03131',
            dashStyle: 'Dash',
            width: 2,
            label: { text: `Limit ${percentText(COMPLAINT_RATE_LIMIT)}`, align: 'right' },
          },
        ],
      },
    ],
    tooltip: { shared: true },
    legend: { enabled: true },
    series: [
      { type: 'column', name: 'Accepted', data: d.days.map((x) => x.accepted), color: '#2f9e44' },
      { type: 'column', name: 'Bounced', data: d.days.map((x) => x.bounced), color: '#f08c00' },
      { type: 'column', name: 'Complaints', data: d.days.map((x) => x.complained), color: '#e03131' },
      { type: 'column', name: 'Unsubscribed', data: d.days.map((x) => x.unsubscribed), color: '#868e96' },
      {
        type: 'line',
        name: 'Complaint rate',
        yAxis: 1,
        data: rate,
        color: '#c2255c',
        tooltip: { valueSuffix: '%' },
      },
    ],
  };
}
