/**
 * kafkajs 2.2.4 keeps every broker connection busy while idle: once a request has been answered,
 * `RequestQueue.checkPendingRequests` schedules its next check at `throttledUntil - Date.now()`, which is
 * negative when the broker has never throttled (`throttledUntil` starts at -1), so Node runs it after 1 ms,
 * and it schedules the next: a 1 ms timer loop per connection, forever, with nothing to send (kafkajs issues
 * 1556, 1604 and 1704; on Node 24 each turn also warns TimeoutNegativeWarning). Measured on an idle users
 * service, the loop and its garbage were about half of the process's CPU.
 *
 * The check is needed only when requests wait (then every 10 ms, or when a throttle ends) or a throttle is
 * still running; a request that could be sent at once is sent by `push`, and an answered or timed-out one
 * checks the queue itself. This module schedules exactly then, replacing the method once for every client
 * of the process (the platform's, @nestjs/microservices', the tests'). Loaded by ./kafka.ts.
 */
// kafkajs has no exports map: its request queue is reachable by path, and its version is pinned below.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const RequestQueue = require('kafkajs/src/network/requestQueue') as RequestQueueClass;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { version } = require('kafkajs/package.json') as { version: string };

interface RequestQueueLike {
  pending: unknown[];
  throttledUntil: number;
  throttleCheckTimeoutId: NodeJS.Timeout | null;
  checkPendingRequests(): void;
  scheduleCheckPendingRequests(): void;
}

type RequestQueueClass = { prototype: RequestQueueLike } & (new (options: object) => RequestQueueLike);

/** The kafkajs versions whose request queue this replacement was written against (a new one is read again). */
export const KAFKAJS_VERSIONS_FIXED = ['2.2.4'];

/** kafkajs' own wait between checks while requests are pending and nothing throttles. */
const CHECK_PENDING_REQUESTS_INTERVAL_MS = 10;

function scheduleCheckPendingRequests(this: RequestQueueLike): void {
  if (this.throttleCheckTimeoutId) return;
  const throttledFor = this.throttledUntil - Date.now();
  let delay: number;
  if (this.pending.length > 0) delay = throttledFor > 0 ? throttledFor : CHECK_PENDING_REQUESTS_INTERVAL_MS;
  else if (throttledFor > 0) delay = throttledFor;
  else return; // nothing waits and nothing throttles: the next push or answer checks again
  this.throttleCheckTimeoutId = setTimeout(() => {
    this.throttleCheckTimeoutId = null;
    this.checkPendingRequests();
  }, delay);
}

/** The request queue kafkajs uses, with the fixed scheduling (for the unit test). */
export const KafkaRequestQueue = RequestQueue;

/** The installed kafkajs' version: the unit test fails on one this fix was not written against. */
export const KAFKAJS_VERSION = version;

// Another version's queue is left as it is: its unit test says the fix must be read again.
if (KAFKAJS_VERSIONS_FIXED.includes(version))
  RequestQueue.prototype.scheduleCheckPendingRequests = scheduleCheckPendingRequests;
