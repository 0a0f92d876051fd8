import { DocumentRefusedError, SourceUnavailableError } from '../sources/source';
import {
  isTransientDatabaseError,
  mapLimit,
  SOURCE_RETRY_DELAYS_MS,
  withRetries,
  withTimeout,
} from './retry';

describe('source call retries', () => {
  const waits: number[] = [];
  const wait = async (ms: number) => {
    waits.push(ms);
  };
  beforeEach(() => waits.splice(0));

  it('tries again after 200 ms, 1 s and 3 s, then gives up with the last error', async () => {
    let calls = 0;
    const failing = () => Promise.reject(new SourceUnavailableError(`down ${++calls}`, 503));
    await expect(withRetries(failing, { wait })).rejects.toThrow('down 4');
    expect(waits).toEqual([...SOURCE_RETRY_DELAYS_MS]);
    expect(SOURCE_RETRY_DELAYS_MS).toEqual([200, 1000, 3000]);
  });

  it('waits at least as long as the source’s Retry-After', async () => {
    let calls = 0;
    const busy = async () => {
      if (++calls === 1) throw new SourceUnavailableError('busy', 429, 5000);
      if (calls === 2) throw new SourceUnavailableError('busy', 503, 100);
      return 'ok';
    };
    await expect(withRetries(busy, { wait })).resolves.toBe('ok');
    expect(waits).toEqual([5000, 1000]);
  });

  it('stops waiting once a try succeeds', async () => {
    let calls = 0;
    const flaky = async () => {
      if (++calls < 3) throw new Error('blip');
      return 'ok';
    };
    await expect(withRetries(flaky, { wait })).resolves.toBe('ok');
    expect(waits).toEqual([200, 1000]);
  });

  it('does not retry a refused document', async () => {
    let calls = 0;
    const refused = () => {
      calls++;
      return Promise.reject(new DocumentRefusedError('not a PDF', 'http://x'));
    };
    await expect(withRetries(refused, { wait })).rejects.toBeInstanceOf(DocumentRefusedError);
    expect(calls).toBe(1);
  });

  it('times out a call that hangs', async () => {
    await expect(withTimeout(new Promise(() => undefined), 20, 'latest BHP')).rejects.toThrow(
      'latest BHP did not answer within 20 ms',
    );
  });
});

describe('transient database errors', () => {
  it('are a restart, a lost connection, a deadlock; not a wrong statement', () => {
    expect(
      isTransientDatabaseError(
        Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      ),
    ).toBe(true);
    expect(isTransientDatabaseError(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(
      isTransientDatabaseError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })),
    ).toBe(true);
    expect(isTransientDatabaseError({ message: 'x', driverError: { code: '40P01' } })).toBe(true);
    expect(isTransientDatabaseError(Object.assign(new Error('syntax error'), { code: '42601' }))).toBe(false);
    expect(isTransientDatabaseError(new Error('duplicate key'))).toBe(false);
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
