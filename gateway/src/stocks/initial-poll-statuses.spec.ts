import { Topics } from '@irp/proto';
import { ServicesClient } from '../kafka/services.client';
import { InitialPollStatuses } from './initial-poll-statuses';

const A = '00000000-0000-4000-8000-00000000000a';
const B = '00000000-0000-4000-8000-00000000000b';

function statuses(answer: () => Promise<unknown>) {
  const calls: Array<{ topic: string; payload: unknown; timeoutMs?: number }> = [];
  const services = {
    request: (topic: string, payload: unknown, timeoutMs?: number) => {
      calls.push({ topic, payload, timeoutMs });
      return answer();
    },
  } as unknown as ServicesClient;
  return { lookup: new InitialPollStatuses(services, { STOCK_PAGE_CONTRIBUTOR_TIMEOUT_MS: 1500 }), calls };
}

const C = '00000000-0000-4000-8000-00000000000c';
const polled = (id: string) => ({ id, pollAsx: true });

describe('InitialPollStatuses', () => {
  it('asks once for all the polled stocks; a stock without a run is none', async () => {
    const { lookup, calls } = statuses(async () => ({ statuses: { [A]: 'completed' } }));
    const latest = await lookup.of([polled(A), polled(B), polled(A), { id: C, pollAsx: false }]);
    expect(latest(A)).toBe('completed');
    expect(latest(B)).toBe('none');
    expect(calls).toEqual([
      { topic: Topics.AnnouncementsInitialPollStatuses, payload: { stockIds: [A, B] }, timeoutMs: 1500 },
    ]);
  });

  it('asks nobody without a polled stock, and never rejects: unknown when the service does not answer', async () => {
    const quiet = statuses(async () => ({ statuses: {} }));
    expect((await quiet.lookup.of([]))(A)).toBe('none');
    expect((await quiet.lookup.of([{ id: A, pollAsx: false }]))(A)).toBe('none');
    expect(quiet.calls).toEqual([]);
    const down = statuses(() => Promise.reject(new Error('no answer within 1500 ms')));
    expect((await down.lookup.of([polled(A)]))(A)).toBe('unknown');
  });
});
