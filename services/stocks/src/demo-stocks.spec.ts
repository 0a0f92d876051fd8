import { DEMO_STOCK_IDS, optionGroupProblems } from '@irp/proto';
import { DEMO_API_KEYS, DEMO_STOCKS } from './demo-stocks';
import { DEMO_OPTION_GROUP, parseSeedArgs, syntheticStock } from './seed';
import { applyFields, defaultSettings, isValidIsin, validateSettings } from './stocks/stock-rules';

const NOW = new Date();

describe('demo and synthetic stocks', () => {
  it('are valid by the same rules every save is held to', () => {
    for (const demo of DEMO_STOCKS) {
      let settings = applyFields(defaultSettings(NOW), demo.fields);
      expect(() => validateSettings(settings, NOW)).not.toThrow();
      for (const [, , fields] of demo.edits ?? []) {
        settings = applyFields(settings, fields);
        expect(() => validateSettings(settings, NOW)).not.toThrow();
      }
    }
  });

  it('give the first two demo stocks the fixed ids and cover the exchanges', () => {
    expect(DEMO_STOCKS.slice(0, 2).map((d) => d.id)).toEqual([...DEMO_STOCK_IDS]);
    const exchanges = DEMO_STOCKS.map((d) => d.fields.exchange);
    expect(exchanges.filter((e) => e === 'ASX').length).toBeGreaterThanOrEqual(6);
    expect(new Set(exchanges)).toEqual(new Set(['ASX', 'LSE', 'FSE', 'OTC']));
    expect(Object.values(DEMO_API_KEYS).every((k) => /^[0-9a-f]{32}$/.test(k))).toBe(true);
  });

  it('makes synthetic stocks with unique tickers and valid ISINs', () => {
    const made = Array.from({ length: 200 }, (_, i) => syntheticStock(i + 1, NOW.getTime()));
    expect(new Set(made.map((m) => m.settings.ticker)).size).toBe(200);
    for (const { settings } of made) {
      expect(() => validateSettings(settings, NOW)).not.toThrow();
      if (settings.exchange === 'LSE' || settings.exchange === 'FSE')
        expect(isValidIsin(settings.isin)).toBe(true);
    }
  });

  it("seed the demo option group, marked as demo data, with the spec's one option only", () => {
    expect(optionGroupProblems(DEMO_OPTION_GROUP)).toEqual([]);
    expect(DEMO_OPTION_GROUP.name).toMatch(/demo data/);
    expect(DEMO_OPTION_GROUP.options.map((o) => [o.price, o.isDefault])).toEqual([[1800, true]]);
  });

  it('reads --synthetic=N', () => {
    expect(parseSeedArgs([])).toEqual({});
    expect(parseSeedArgs(['--synthetic=2000'])).toEqual({ synthetic: 2000 });
    expect(() => parseSeedArgs(['--synthetic=lots'])).toThrow(/whole number/);
  });
});
