import { stockFixture } from '@irp/proto/testing';
import { AppError } from '../errors';
import { normalisedCombinedTicker, rowFromStock, upsertStatement } from './stock-projection-rules';

describe('rowFromStock', () => {
  const stock = stockFixture({ companyName: 'ABC Limited', updatedAt: '2026-03-04T05:06:07.089Z' });

  it('copies each kept property from the Stock field of the same name, updatedAt as a Date', () => {
    expect(rowFromStock(stock, ['id', 'combinedTicker', 'companyName', 'apiKey', 'updatedAt'])).toEqual({
      id: stock.id,
      combinedTicker: 'ABC:ASX',
      companyName: 'ABC Limited',
      apiKey: stock.apiKey,
      updatedAt: new Date('2026-03-04T05:06:07.089Z'),
    });
  });

  it('takes what fromStock gives over the copy, and only the kept properties', () => {
    const row = rowFromStock(stock, ['id', 'displayName'], (s) => ({
      displayName: `${s.ticker}!`,
      other: 1,
    }));
    expect(row).toEqual({ id: stock.id, displayName: 'ABC!' });
  });

  it('refuses a property that is no Stock field and that fromStock does not give', () => {
    expect(() => rowFromStock(stock, ['id', 'compnyName'])).toThrow(/"compnyName" is not a field of Stock/);
  });
});

describe('upsertStatement', () => {
  const sql = upsertStatement('svc.stocks', ['id', 'ticker', 'updated_at']);

  it('inserts every column, one parameter each in order', () => {
    expect(sql).toContain('INSERT INTO svc.stocks (id, ticker, updated_at)\nVALUES ($1, $2, $3)');
  });

  it('overwrites only a stored row that is older, or the same version with different values', () => {
    expect(sql).toContain(
      'ON CONFLICT (id) DO UPDATE SET ticker = EXCLUDED.ticker, updated_at = EXCLUDED.updated_at',
    );
    expect(sql).toContain('WHERE svc.stocks.updated_at < EXCLUDED.updated_at');
    expect(sql).toContain(
      'OR (svc.stocks.updated_at = EXCLUDED.updated_at\nAND (svc.stocks.ticker, svc.stocks.updated_at) IS DISTINCT FROM (EXCLUDED.ticker, EXCLUDED.updated_at))',
    );
    expect(sql.endsWith('RETURNING id')).toBe(true);
  });

  it('needs the id and updated_at columns', () => {
    expect(() => upsertStatement('svc.stocks', ['id', 'ticker'])).toThrow(/updated_at/);
    expect(() => upsertStatement('svc.stocks', ['ticker', 'updated_at'])).toThrow(/id column/);
  });
});

describe('normalisedCombinedTicker', () => {
  it.each([
    ['bhp', 'BHP:ASX'],
    [' BHP ', 'BHP:ASX'],
    ['bhp:asx', 'BHP:ASX'],
    ['abc:nzx', 'ABC:NZX'],
  ])('%s names %s', (text, combined) => {
    expect(normalisedCombinedTicker(text)).toBe(combined);
  });

  it.each(['', ':ASX', 'A:B:C'])('"%s" is a BAD_REQUEST', (text) => {
    const thrown = (() => {
      try {
        return normalisedCombinedTicker(text);
      } catch (e) {
        return e;
      }
    })();
    expect(thrown).toBeInstanceOf(AppError);
    expect(thrown).toMatchObject({ code: 'BAD_REQUEST' });
  });
});
