import { ErrorCode } from '@irp/proto';
import { AppError } from '../errors';
import { backoffDelayMs, DEFAULT_HANDLER_RETRY, retryTransient } from './handler-retry';
import { CallTimeoutError, mapLimit, withRetries, withTimeout } from './retry';
import { isTransientDatabaseError, isTransientError } from './transient-errors';
import {
  QueryFailedError,
  QueryRunnerAlreadyReleasedError,
  QueryRunnerProviderAlreadyReleasedError,
} from 'typeorm';

const sqlError = (message: string, code: string) => Object.assign(new Error(message), { code });
const kafkaError = (name: string, retriable: boolean, cause?: unknown) =>
  Object.assign(new Error(name), { name, retriable, cause });

describe('transient errors', () => {
  it('database: a restart, a lost connection, too many clients, a deadlock; not a wrong statement', () => {
    expect(
      isTransientDatabaseError(sqlError('terminating connection due to administrator command', '57P01')),
    ).toBe(true);
    expect(isTransientDatabaseError(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isTransientDatabaseError(sqlError('connect ECONNREFUSED', 'ECONNREFUSED'))).toBe(true);
    expect(isTransientDatabaseError(sqlError('sorry, too many clients already', '53300'))).toBe(true);
    expect(isTransientDatabaseError({ message: 'x', driverError: { code: '40P01' } })).toBe(true);
    expect(isTransientError(new Error('wrapped', { cause: sqlError('x', '57P03') }))).toBe(true);
    // A source's network failure (fetch wraps it as `cause`) is not the database's.
    expect(
      isTransientDatabaseError(new TypeError('fetch failed', { cause: sqlError('x', 'ECONNREFUSED') })),
    ).toBe(false);
    expect(isTransientDatabaseError(sqlError('syntax error', '42601'))).toBe(false);
    expect(isTransientDatabaseError(sqlError('duplicate key', '23505'))).toBe(false);
  });

  it('an AppError: SERVICE_UNAVAILABLE is tried again unless final (a vendor adapter that already retried)', () => {
    expect(isTransientError(new AppError('SERVICE_UNAVAILABLE', 'the database is away'))).toBe(true);
    expect(
      isTransientError(new AppError('SERVICE_UNAVAILABLE', 'the vendor answered 503', { final: true })),
    ).toBe(false);
    expect(isTransientError(new AppError('BAD_REQUEST', 'no'))).toBe(false);
  });

  it("database: TypeORM's query runner released under a transaction by a cut connection", () => {
    // TypeORM releases a runner whose pg client emitted 'error'; the transaction's next statement throws these.
    expect(isTransientError(new QueryRunnerAlreadyReleasedError())).toBe(true);
    expect(isTransientError(new QueryRunnerProviderAlreadyReleasedError())).toBe(true);
    expect(isTransientError(new QueryFailedError('SELECT 1', [], sqlError('syntax error', '42601')))).toBe(
      false,
    );
  });

  it('broker: timeouts and kafkajs giving up on an unreachable broker; not a refused write', () => {
    expect(isTransientError(kafkaError('KafkaJSRequestTimeoutError', true))).toBe(true);
    expect(
      isTransientError(
        kafkaError('KafkaJSNumberOfRetriesExceeded', false, kafkaError('KafkaJSConnectionError', true)),
      ),
    ).toBe(true);
    expect(isTransientError(kafkaError('KafkaJSProtocolError', true))).toBe(true);
    expect(isTransientError(kafkaError('KafkaJSProtocolError', false))).toBe(false);
  });

  it('a timeout or an unavailable service is transient; a rule refusal, a validation error or a bug is not', () => {
    expect(isTransientError(new CallTimeoutError('stocks.get', 4000))).toBe(true);
    expect(isTransientError(new AppError(ErrorCode.ServiceUnavailable, 'stocks is away'))).toBe(true);
    expect(isTransientError(sqlError('terminating connection', '57P01'))).toBe(true);
    expect(isTransientError(new AppError(ErrorCode.Conflict, 'already sent'))).toBe(false);
    expect(isTransientError(new AppError(ErrorCode.BadRequest, 'no subject'))).toBe(false);
    expect(isTransientError(new AppError(ErrorCode.Internal, 'bug'))).toBe(false);
    expect(isTransientError(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(false);
  });
});

describe('handler retry policy', () => {
  const policy = { maxMs: 10_000, firstDelayMs: 100, maxDelayMs: 1000 };

  it('backs off exponentially up to the cap, each wait between half and all of its step', () => {
    const low = [1, 2, 3, 4, 5, 6].map((a) => backoffDelayMs(a, policy, () => 0));
    const high = [1, 2, 3, 4, 5, 6].map((a) => backoffDelayMs(a, policy, () => 1));
    expect(low).toEqual([50, 100, 200, 400, 500, 500]);
    expect(high).toEqual([100, 200, 400, 800, 1000, 1000]);
    expect(DEFAULT_HANDLER_RETRY.maxMs).toBeGreaterThanOrEqual(120_000);
  });

  /** A clock the waits move, so the bounds are exact and the test takes no time. */
  function fakeClock() {
    let t = 1_000_000;
    const waits: number[] = [];
    return {
      now: () => t,
      wait: async (ms: number) => {
        waits.push(ms);
        t += ms;
      },
      waits,
    };
  }

  it('tries a transient failure again until it succeeds', async () => {
    const clock = fakeClock();
    let calls = 0;
    const retries: number[] = [];
    const result = await retryTransient(
      async () => {
        if (++calls < 4) throw sqlError('terminating connection', '57P01');
        return 'stored';
      },
      { policy, ...clock, onRetry: (_, attempt) => retries.push(attempt) },
    );
    expect(result).toBe('stored');
    expect(retries).toEqual([1, 2, 3]);
  });

  it('throws a permanent failure at once', async () => {
    const clock = fakeClock();
    let calls = 0;
    const refused = new AppError(ErrorCode.Conflict, 'already sent');
    await expect(
      retryTransient(
        async () => {
          calls++;
          throw refused;
        },
        { policy, ...clock },
      ),
    ).rejects.toBe(refused);
    expect(calls).toBe(1);
    expect(clock.waits).toEqual([]);
  });

  it('gives up a transient failure once the next try would start after the bound', async () => {
    const clock = fakeClock();
    const started = clock.now();
    await expect(
      retryTransient(() => Promise.reject(new Error('Connection terminated unexpectedly')), {
        policy,
        ...clock,
      }),
    ).rejects.toThrow('Connection terminated');
    expect(clock.now() - started).toBeLessThanOrEqual(policy.maxMs);
    expect(clock.now() - started).toBeGreaterThan(policy.maxMs - policy.maxDelayMs);
  });

  it('never tries past a deadline (a requester that stops waiting)', async () => {
    const clock = fakeClock();
    const deadline = clock.now() + 700;
    let calls = 0;
    await expect(
      retryTransient(
        async () => {
          calls++;
          throw new AppError(ErrorCode.ServiceUnavailable, 'stocks is away');
        },
        { policy, deadline, ...clock },
      ),
    ).rejects.toThrow('stocks is away');
    expect(clock.now()).toBeLessThanOrEqual(deadline);
    expect(calls).toBeGreaterThan(1);
  });
});

describe('withRetries', () => {
  it('waits the planned delays or what the callee asked for, whichever is longer; stops on a non-retryable', async () => {
    const waits: number[] = [];
    const wait = async (ms: number) => void waits.push(ms);
    let calls = 0;
    const busy = async () => {
      if (++calls === 1) throw Object.assign(new Error('busy'), { asked: 900 });
      if (calls === 2) throw new Error('blip');
      return 'ok';
    };
    const asked = (e: unknown) => (e as { asked?: number }).asked;
    await expect(withRetries(busy, { delaysMs: [100, 200], askedDelayMs: asked, wait })).resolves.toBe('ok');
    expect(waits).toEqual([900, 200]);
    calls = 0;
    await expect(withRetries(busy, { delaysMs: [100, 200], retryable: () => false, wait })).rejects.toThrow(
      'busy',
    );
    expect(calls).toBe(1);
  });

  it('times out a call that hangs', async () => {
    await expect(withTimeout(new Promise(() => undefined), 20, 'latest BHP')).rejects.toThrow(
      'latest BHP did not answer within 20 ms',
    );
  });
});

describe('mapLimit', () => {
  it('runs at most `limit` at a time and keeps the order of results', async () => {
    let running = 0;
    let most = 0;
    const results = await mapLimit([5, 1, 4, 2, 3], 2, async (n) => {
      most = Math.max(most, ++running);
      await new Promise((r) => setTimeout(r, n));
      running--;
      return n * 10;
    });
    expect(results).toEqual([50, 10, 40, 20, 30]);
    expect(most).toBe(2);
  });
});
