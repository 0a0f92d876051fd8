import type { MarketItemsListedEvent } from '@irp/proto';
import { PollService } from './poll.service';

/**
 * A poller's per-stock poll, its collaborators recorded in the order they are called: the poll decides the
 * automatic sends of what it stored itself, after their documents, rather than leaving them to its
 * `announcement.detected` coming back through the poller role's consumer.
 */
function pollerRecording(storedIds: string[]) {
  const calls: string[] = [];
  const stock = {
    id: '00000000-0000-4000-8000-000000000001',
    ticker: 'BHP',
    combinedTicker: 'BHP',
    pollAsx: true,
    archived: false,
    subscriptionExpired: false,
  };
  const record =
    <T>(name: string, value: T) =>
    async (...args: unknown[]) => {
      calls.push(`${name}(${args.map((a) => JSON.stringify(a)).join(', ')})`);
      return value;
    };
  const service = new PollService(
    { stock: record('stock', stock) } as never,
    { get: async () => ({ name: 'asx2' }) } as never,
    {} as never,
    {} as never,
    { entity: async () => ({ disablePollUntil: null }) } as never,
    {
      storeDetected: record(
        'storeDetected',
        storedIds.map((id) => ({ id })),
      ),
      downloadPending: record('downloadPending', 0),
    } as never,
    { decideStored: record('decideStored', undefined) } as never,
    { completed: async () => true } as never,
    { POLL_INTERVAL_MS: 1000 } as never,
  );
  return { service, calls, stock };
}

const fanOut = (stockId: string): MarketItemsListedEvent => ({
  stockId,
  ticker: 'BHP',
  requestedAt: new Date().toISOString(),
  items: [
    {
      sourceKey: '03000001',
      ticker: 'BHP',
      headline: 'Half Year Results',
      releasedAt: new Date().toISOString(),
      priceSensitive: true,
      documentUrl: '/asxpdf/03000001.pdf',
    },
  ],
});

describe('PollService per-stock poll', () => {
  it('decides the automatic sends of what it stored, after their documents are fetched', async () => {
    const { service, calls, stock } = pollerRecording(['a-1', 'a-2']);
    await service.listed(fanOut(stock.id));
    expect(calls.map((c) => c.slice(0, c.indexOf('(')))).toEqual([
      'stock',
      'storeDetected',
      'downloadPending',
      'decideStored',
    ]);
    expect(calls[3]).toBe(`decideStored("${stock.id}", ["a-1","a-2"])`);
  });

  it('stores a market read’s items however old their message, while a stale poll request is skipped', async () => {
    const { service, calls, stock } = pollerRecording(['a-1']);
    const hourAgo = new Date(Date.now() - 3_600_000).toISOString();
    await service.handle({ stockId: stock.id, ticker: 'BHP', market: false, requestedAt: hourAgo });
    expect(calls).toEqual([]);
    await service.listed({ ...fanOut(stock.id), requestedAt: hourAgo });
    expect(calls.map((c) => c.slice(0, c.indexOf('(')))).toContain('storeDetected');
  });

  it('decides nothing when the poll stored nothing new', async () => {
    const { service, calls, stock } = pollerRecording([]);
    await service.listed(fanOut(stock.id));
    expect(calls.some((c) => c.startsWith('decideStored'))).toBe(false);
  });
});
