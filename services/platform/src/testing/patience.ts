/**
 * How long a test's wait may go on: until just before the runner's own limit of the test (or hook) it runs
 * in, whatever shorter time the caller named. A wait in a test ends on what it waits for; its deadline is only
 * there to fail with a message that names what never came, instead of jest's bare "Exceeded timeout". So a
 * slow machine makes a test slower, never red (issue 29): the caller's `ms` is only the least it waits.
 *
 * The integration environment (integration-environment.js) records when the running test or hook must end
 * (`__irpLimitEnd` on the file's global object); outside it (a unit test, a script), `ms` is the deadline.
 */
const MARGIN_MS = 2_000;

interface LimitGlobal {
  __irpLimitEnd?: number;
}

/** The time a wait that asked for `ms` gives up: the later of now + `ms` and the runner's limit less a margin. */
export function patientDeadline(ms: number): number {
  const own = Date.now() + ms;
  const end = (globalThis as LimitGlobal).__irpLimitEnd;
  return typeof end === 'number' && Number.isFinite(end) ? Math.max(own, end - MARGIN_MS) : own;
}

/** "within N s" for a failure message: how long the wait that started at `startedAt` went on. */
export const waitedFor = (startedAt: number) => `within ${((Date.now() - startedAt) / 1000).toFixed(1)} s`;
