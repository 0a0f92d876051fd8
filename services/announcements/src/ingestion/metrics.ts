import { metricsRegistry } from '@irp/platform';
import { Counter, Histogram } from 'prom-client';

/** The polling engine's metrics, on the platform's registry (served at /metrics). */

export const announcementsDetected = new Counter({
  name: 'irp_announcements_detected_total',
  help: 'Announcements stored for the first time, by origin (poll, initial-poll, reconcile)',
  labelNames: ['origin'] as const,
  registers: [metricsRegistry],
});

export const sourceKeyConflicts = new Counter({
  name: 'irp_announcements_source_key_conflicts_total',
  help: 'Source items whose key is stored already for the stock with another headline or release time (not stored: a source reusing keys), by origin',
  labelNames: ['origin'] as const,
  registers: [metricsRegistry],
});

export const pollSeconds = new Histogram({
  name: 'irp_announcements_poll_duration_seconds',
  help: 'One poll of a stock or of the whole market, source call, storing and downloads included',
  labelNames: ['kind', 'outcome'] as const,
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
  registers: [metricsRegistry],
});

export const sourceCallFailures = new Counter({
  name: 'irp_announcements_source_failures_total',
  help: 'Source calls that failed after their retries, by source',
  labelNames: ['source'] as const,
  registers: [metricsRegistry],
});

export const documentDownloads = new Counter({
  name: 'irp_announcements_downloads_total',
  help: 'Document downloads by outcome (stored, refused, retry, failed)',
  labelNames: ['outcome'] as const,
  registers: [metricsRegistry],
});

export const pollRequestsPublished = new Counter({
  name: 'irp_announcements_poll_requests_published_total',
  help: 'Poll work published, by kind: stock and market (announcements.poll-requested), fan-out (announcements.market-items-listed)',
  labelNames: ['kind'] as const,
  registers: [metricsRegistry],
});
