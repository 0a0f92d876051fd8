import { DocumentRefusedError, SourceUnavailableError } from './source';
import { SOURCE_RETRY_DELAYS_MS, withSourceRetries } from './source-retries';

describe('source call retries', () => {
  const waits: number[] = [];
  const wait = async (ms: number) => {
    waits.push(ms);
  };
  beforeEach(() => waits.splice(0));

  it('tries again after 200 ms, 1 s and 3 s, then gives up with the last error', async () => {
    let calls = 0;
    const failing = () => Promise.reject(new SourceUnavailableError(`down ${++calls}`, 503));
    await expect(withSourceRetries(failing, { wait })).rejects.toThrow('down 4');
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
    await expect(withSourceRetries(busy, { wait })).resolves.toBe('ok');
    expect(waits).toEqual([5000, 1000]);
  });

  it('stops waiting once a try succeeds', async () => {
    let calls = 0;
    const flaky = async () => {
      if (++calls < 3) throw new Error('blip');
      return 'ok';
    };
    await expect(withSourceRetries(flaky, { wait })).resolves.toBe('ok');
    expect(waits).toEqual([200, 1000]);
  });

  it('does not retry a refused document', async () => {
    let calls = 0;
    const refused = () => {
      calls++;
      return Promise.reject(new DocumentRefusedError('not a PDF', 'http://x'));
    };
    await expect(withSourceRetries(refused, { wait })).rejects.toBeInstanceOf(DocumentRefusedError);
    expect(calls).toBe(1);
  });
});
