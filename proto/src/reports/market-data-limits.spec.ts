import { SaveMarketDataRequestSchema } from './messages';
import { SaveMarketDataBodySchema } from './rest';

/** The issues' messages of a Market tab save. */
const messages = (body: unknown) => {
  const parsed = SaveMarketDataBodySchema.safeParse(body);
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('the Market tab save: each field within its limits (issue 34, found by values from the domain)', () => {
  it('refuses a negative price, value or count, and a fall of more than 100%', () => {
    expect(messages({ ask: -0.01, volume: '-5', marketCap: -1, movementPercent: -100.5 })).toEqual([
      'ask: ask must be 0 or more',
      'movementPercent: movementPercent must be at least -100',
      'volume: volume must be 0 or more',
      'marketCap: marketCap must be 0 or more',
    ]);
    expect(SaveMarketDataBodySchema.parse({ movement: -1.25, movementPercent: -100 })).toEqual({
      movement: -1.25,
      movementPercent: -100,
    });
  });

  it('refuses fractions of a share and numbers past what is kept exactly (they answered 500)', () => {
    expect(messages({ volume: 1.5, sharesOnIssue: 1e308, last: 1e15 })).toEqual([
      'last: last must be at most 1,000,000,000',
      'volume: volume must be a whole number',
      'sharesOnIssue: sharesOnIssue must be at most 1,000,000,000,000,000',
    ]);
  });

  it('still reads what the browser sends, and a blank clears', () => {
    expect(SaveMarketDataBodySchema.parse({ ask: '1,234.50', bid: '', volume: '$1,000' })).toEqual({
      ask: 1234.5,
      bid: null,
      volume: 1000,
    });
  });

  it('holds a request on the broker to the same limits', () => {
    const actor = {
      id: '7a1f1c9e-2d0b-4c1e-9a55-3f0f4a5b6c7d',
      username: 'admin',
      roles: ['Admin'],
      stockRoles: {},
    };
    const parse = (fields: object) =>
      SaveMarketDataRequestSchema.safeParse({ actor, combinedTicker: 'BHP:ASX', fields }).success;
    expect(parse({ ask: 1.25, volume: 100 })).toBe(true);
    expect(parse({ ask: -1 })).toBe(false);
    expect(parse({ volume: 2.5 })).toBe(false);
  });
});
