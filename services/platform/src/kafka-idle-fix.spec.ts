import { KAFKAJS_VERSION, KAFKAJS_VERSIONS_FIXED, KafkaRequestQueue } from './kafka-idle-fix';

const logger = {
  debug: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  info: () => undefined,
};

function queue() {
  return new KafkaRequestQueue({
    maxInFlightRequests: null,
    requestTimeout: 30_000,
    enforceRequestTimeout: true,
    clientId: 'idle-fix-test',
    broker: '127.0.0.1:1',
    logger,
  });
}

describe('kafkajs request queue while idle (kafka-idle-fix.ts)', () => {
  afterEach(() => jest.useRealTimers());

  it('is the kafkajs version the fix was written against', () => {
    expect(KAFKAJS_VERSIONS_FIXED).toContain(KAFKAJS_VERSION);
  });

  it('schedules no check when nothing waits and nothing throttles (kafkajs 2.2.4 looped every 1 ms)', () => {
    jest.useFakeTimers();
    const q = queue();
    q.checkPendingRequests(); // what an answered request does
    expect(q.throttleCheckTimeoutId).toBeNull();
    expect(jest.getTimerCount()).toBe(0);
  });

  it('checks pending requests every 10 ms, or when the broker throttle ends', () => {
    jest.useFakeTimers({ now: 1_000_000 });
    const q = queue();
    // what the check does is kafkajs' own: here only when it runs
    const check = jest.spyOn(q, 'checkPendingRequests').mockImplementation(() => undefined);
    q.pending.push({});
    q.scheduleCheckPendingRequests();
    expect(jest.getTimerCount()).toBe(1);
    jest.advanceTimersByTime(9);
    expect(check).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(check).toHaveBeenCalledTimes(1);

    check.mockClear();
    q.throttleCheckTimeoutId = null;
    q.throttledUntil = Date.now() + 500;
    q.scheduleCheckPendingRequests();
    jest.advanceTimersByTime(499);
    expect(check).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(check).toHaveBeenCalledTimes(1);
  });

  it('checks when a throttle ends even with nothing pending, and schedules one check at a time', () => {
    jest.useFakeTimers({ now: 2_000_000 });
    const q = queue();
    q.throttledUntil = Date.now() + 200;
    q.scheduleCheckPendingRequests();
    q.scheduleCheckPendingRequests();
    expect(jest.getTimerCount()).toBe(1);
    jest.advanceTimersByTime(200);
    // the check ran and, the throttle over and nothing pending, scheduled nothing more
    expect(q.throttleCheckTimeoutId).toBeNull();
    expect(jest.getTimerCount()).toBe(0);
  });
});
