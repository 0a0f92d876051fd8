import { Topics } from '@irp/proto';
import { AppError } from '@irp/platform';
import {
  ADMIN,
  expectAppError,
  get,
  history,
  requester,
  save,
  useStocksService,
} from './stocks-service.harness';

/**
 * Concurrent changes on the real database: unique indexes and row locks turn races into one winner and
 * the rules' 409, and concurrent saves of one stock into consecutive versions. Setup: stocks-service.harness.ts.
 */

describe('stocks service: concurrent creates, saves and ticker changes', () => {
  useStocksService();

  it('lets exactly one of two concurrent creates of a ticker win; the other is 409', async () => {
    const results = await Promise.allSettled([
      save(ADMIN, { ticker: 'RACE', companyName: 'First' }),
      save(ADMIN, { ticker: 'race', companyName: 'Second' }),
    ]);
    const won = results.filter((r) => r.status === 'fulfilled');
    const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(lost[0].reason).toBeInstanceOf(AppError);
    expect(lost[0].reason).toMatchObject({
      code: 'CONFLICT',
      message: 'A stock with ticker RACE already exists on ASX',
    });
    expect(await history('RACE')).toHaveLength(1);
  });

  it('serialises concurrent saves of one stock: consecutive versions, no change lost', async () => {
    const stock = await save(ADMIN, { ticker: 'CONC', companyName: 'Name 0' });
    const n = 8;
    const saved = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        save(ADMIN, { companyName: `Name ${i + 1}`, accountingReference: `REF-${i + 1}` }, { id: stock.id }),
      ),
    );
    expect(saved.map((st) => st.version).sort((a, b) => a - b)).toEqual(
      Array.from({ length: n }, (_, i) => i + 2),
    );
    const versions = await history('CONC');
    expect(versions.map((v) => v.versionId)).toEqual(Array.from({ length: n + 1 }, (_, i) => n + 1 - i));
    // Each save saw the one before it: every change starts from the previous change's value.
    const chain = [...versions].reverse().slice(1);
    chain.forEach((v, i) => {
      const name = v.changes.find((c) => c.fieldName === 'companyName')!;
      const previous =
        i === 0 ? 'Name 0' : chain[i - 1].changes.find((c) => c.fieldName === 'companyName')!.newValue;
      expect(name.originalValue).toBe(previous);
    });
    const final = await get('CONC');
    expect(final.version).toBe(n + 1);
    expect(final.companyName).toBe(chain[n - 1].changes.find((c) => c.fieldName === 'companyName')!.newValue);
    // updatedAt follows the version order.
    const byVersion = [...saved].sort((a, b) => a.version - b.version);
    for (let i = 1; i < n; i++)
      expect(new Date(byVersion[i].updatedAt).getTime()).toBeGreaterThan(
        new Date(byVersion[i - 1].updatedAt).getTime(),
      );
  });

  it('lets only one of a ticker change and a create of the same new ticker win; the other is 409', async () => {
    const renamed = await save(ADMIN, { ticker: 'RNA' });
    const results = await Promise.allSettled([
      requester.request(Topics.StocksChangeTicker, {
        actor: ADMIN,
        exchange: 'ASX',
        ticker: 'RNA',
        newTicker: 'RNB',
      }),
      save(ADMIN, { ticker: 'RNB' }),
    ]);
    const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(lost[0].reason).toMatchObject({
      code: 'CONFLICT',
      message: 'A stock with ticker RNB already exists on ASX',
    });
    const rnb = await get('RNB');
    // Whichever won, RNB is one stock and the loser left no trace.
    if (rnb.id === renamed.id) await expectAppError(get('RNA'), 'NOT_FOUND');
    else expect((await get('RNA')).version).toBe(1);
  });
});
