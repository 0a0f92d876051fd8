import { metricsRegistry } from '@irp/platform';
import { Counter } from 'prom-client';

/** Mails the SMTP server accepted, by kind (announcement, confirmation, notification, test, error, subscription). */
export const mailsAccepted = new Counter({
  name: 'email_mails_accepted_total',
  help: 'Mails accepted by the SMTP server',
  labelNames: ['kind'],
  // The process's /metrics serves the platform's registry, not prom-client's global one.
  registers: [metricsRegistry],
});

/** Mails given up on (a permanent SMTP reply, or out of attempts). */
export const mailsFailed = new Counter({
  name: 'email_mails_failed_total',
  help: 'Mails recorded as failed',
  labelNames: ['kind'],
  // The process's /metrics serves the platform's registry, not prom-client's global one.
  registers: [metricsRegistry],
});

/** Deliveries a dead sender had claimed, queued again by the takeover job and sent by a living sender. */
export const claimsTakenOver = new Counter({
  name: 'email_claims_taken_over_total',
  help: 'Claimed deliveries of a sender whose process is gone (its owner lock free), taken over',
  // The process's /metrics serves the platform's registry, not prom-client's global one.
  registers: [metricsRegistry],
});

/**
 * Deliveries this sender claimed and queued in a lane (priority or routine), waiting for a slot: from here the
 * lanes decide the order (a free slot takes the priority lane's first), so tests wait on it, not on the claim
 * rows, which are written before the sender has read the claim's answer.
 */
export const claimsQueued = new Counter({
  name: 'email_claims_queued_total',
  help: 'Claimed deliveries queued in a sending lane',
  labelNames: ['lane'],
  // The process's /metrics serves the platform's registry, not prom-client's global one.
  registers: [metricsRegistry],
});
