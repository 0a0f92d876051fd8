import { ActorSchema, StockSchema } from '../index';
import { actor, FIXTURE_STOCK_ID, stockFixture } from './fixtures';

describe('shared test fixtures', () => {
  it('makes a whole, valid Stock, overrides applied and combinedTicker following them', () => {
    expect(StockSchema.strict().parse(stockFixture())).toMatchObject({
      id: FIXTURE_STOCK_ID,
      combinedTicker: 'ABC:ASX',
    });
    const bhp = stockFixture({ ticker: 'BHP', exchange: 'NZX', pollAsx: false });
    expect(StockSchema.parse(bhp)).toMatchObject({
      combinedTicker: 'BHP:NZX',
      pollAsx: false,
      companyName: 'BHP Limited',
    });
    expect(stockFixture({ combinedTicker: 'X:Y' }).combinedTicker).toBe('X:Y');
  });

  it('makes a valid actor, one id per username unless given', () => {
    const admin = ActorSchema.parse(actor({ username: 'admin', roles: ['Admin'] }));
    expect(admin).toMatchObject({ username: 'admin', roles: ['Admin'], stockRoles: {} });
    expect(actor({ username: 'admin' }).id).toBe(admin.id);
    expect(actor({ username: 'client' }).id).not.toBe(admin.id);
    expect(actor({ id: '11111111-1111-4111-8111-111111111111' }).id).toBe(
      '11111111-1111-4111-8111-111111111111',
    );
  });
});
