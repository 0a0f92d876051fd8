import { DEMO_STOCK_IDS, Topics } from '@irp/proto';
import { DEMO_API_KEYS } from '../src/demo-stocks';
import { seedDemoStocks, seedSyntheticStocks } from '../src/seed';
import { db, eventOf, get, history, requester, useStocksService } from './stocks-service.harness';

/**
 * The seeds on a fresh schema: demo stocks with real version history, notes and referers, idempotent,
 * refused in production; synthetic stocks in bulk with their events. Setup: stocks-service.harness.ts.
 */

describe('stocks service: the demo and synthetic seeds', () => {
  useStocksService();

  it('seeds the demo stocks idempotently, refuses in production, and bulk-creates synthetic stocks', async () => {
    await seedDemoStocks({ ...process.env });
    const countAfterFirst = (await requester.request(Topics.StocksList, {})).stocks.length;
    await seedDemoStocks({ ...process.env });
    const { stocks } = await requester.request(Topics.StocksList, {});
    expect(stocks.length).toBe(countAfterFirst);
    // A fresh schema (stocks-service.harness.ts): every stock here is a demo stock.
    expect(stocks.length).toBeGreaterThanOrEqual(10);
    expect(stocks.filter((s) => s.exchange === 'ASX').length).toBeGreaterThanOrEqual(6);
    expect(stocks.some((s) => s.archived)).toBe(true);
    expect(stocks.some((s) => s.subscriptionExpired)).toBe(true);
    expect(stocks.some((s) => s.pollAsx)).toBe(true);

    const bhp = await get('BHP');
    expect(bhp.id).toBe(DEMO_STOCK_IDS[0]);
    expect(bhp).toMatchObject({ apiKey: DEMO_API_KEYS.BHP, pollAsx: true });
    expect(bhp.announcementCommentTemplate).not.toBe('');
    expect((await history('BHP')).length).toBeGreaterThan(2);
    expect((await history('BHP')).some((v) => v.changedBy === 'client')).toBe(true);
    expect(
      (await requester.request(Topics.StocksNotes, { combinedTicker: 'BHP' })).notes.length,
    ).toBeGreaterThan(1);
    const bhpReferers = await requester.request(Topics.StocksReferers, { combinedTicker: 'BHP' });
    expect(bhpReferers.referers.length).toBeGreaterThan(1);
    expect(bhpReferers.hits).toBeGreaterThan(1000);
    await expect(seedDemoStocks({ ...process.env, NODE_ENV: 'production' })).rejects.toThrow(
      /Refusing to seed/,
    );

    expect(await seedSyntheticStocks(db, 30, 12)).toBe(30);
    expect(await seedSyntheticStocks(db, 30)).toBe(0);
    const synthetic = (await requester.request(Topics.StocksList, {})).stocks.filter((s) =>
      s.ticker.startsWith('SYN'),
    );
    expect(synthetic).toHaveLength(30);
    expect(synthetic.some((s) => s.exchange === 'LSE' && s.isin.length === 12)).toBe(true);
    expect(await history('SYN00007:LSE')).toEqual([
      expect.objectContaining({ versionId: 1, changedBy: 'seed' }),
    ]);
    const syn = synthetic.find((s) => s.ticker === 'SYN00007')!;
    const event = await eventOf(Topics.StockUpserted, syn.id);
    expect(event.value).toEqual(syn);
  });
});
