import { AsxStandIn, startAsxStandIn } from '@irp/standins/asx';
import { AsxSource } from './asx.source';
import { Asx2Source } from './asx2.source';
import { MockSource } from './mock.source';
import { ANNOUNCEMENT_SERVICES, SourceNotConfiguredError } from './source';
import { createSource, SourceOptions, sourceConfigProblem } from './source.factory';

const base: SourceOptions = {
  maxPdfBytes: 20 * 1024 * 1024,
  timeoutMs: 2000,
  useBrowser: false,
  chromiumPath: '/usr/bin/chromium',
};

describe('sourceConfigProblem', () => {
  it('refuses mock in production, naming why', () => {
    expect(sourceConfigProblem('mock', { ...base, production: true })).toBe(
      'The mock announcement service is not available in production: it makes up announcements, price-sensitive ones included, for real tickers',
    );
    expect(() => createSource('mock', { ...base, production: true })).toThrow(SourceNotConfiguredError);
  });

  it('accepts mock outside production, and the others once their base URLs are set', () => {
    const all = {
      ...base,
      asxBaseUrl: 'http://a',
      asx2BaseUrl: 'http://b',
      westpacBaseUrl: 'http://w',
      iressBaseUrl: 'http://i',
    };
    for (const name of ANNOUNCEMENT_SERVICES) expect(sourceConfigProblem(name, all)).toBeNull();
    expect(sourceConfigProblem('mock', base)).toBeNull();
  });

  it('names the missing variable', () => {
    expect(sourceConfigProblem('westpac', base)).toBe(
      'The westpac announcement service needs WESTPAC_BASE_URL, which is not configured',
    );
    expect(sourceConfigProblem('iress', base)).toBe(
      'The iress announcement service needs IRESS_BASE_URL, which is not configured',
    );
    expect(sourceConfigProblem('asx', base)).toBe(
      'The asx announcement service needs ASX_BASE_URL, which is not configured',
    );
    expect(sourceConfigProblem('asx2', { ...base, asxBaseUrl: 'http://a' })).toBe(
      'The asx2 announcement service needs ASX2_BASE_URL, which is not configured',
    );
    // The market feed has no history: asx2 needs the per-company feed as well.
    expect(sourceConfigProblem('asx2', { ...base, asx2BaseUrl: 'http://b' })).toBe(
      'The asx2 announcement service needs ASX_BASE_URL, which is not configured',
    );
  });
});

describe('createSource', () => {
  let standIn: AsxStandIn;
  beforeAll(async () => {
    standIn = await startAsxStandIn({ seedTickers: ['BHP'], seedYears: [2024] });
  });
  afterAll(() => standIn.close());

  it('refuses westpac and iress without a base URL with SourceNotConfiguredError', () => {
    expect(() => createSource('westpac', base)).toThrow(SourceNotConfiguredError);
    expect(() => createSource('westpac', base)).toThrow(
      'The westpac announcement service needs WESTPAC_BASE_URL, which is not configured',
    );
    expect(() => createSource('iress', base)).toThrow(SourceNotConfiguredError);
    expect(() => createSource('asx', base)).toThrow(SourceNotConfiguredError);
  });

  it('builds each service, each closable', async () => {
    const options = { ...base, asxBaseUrl: standIn.url, asx2BaseUrl: standIn.url };
    const mock = createSource('mock', base);
    const asx = createSource('asx', options);
    const asx2 = createSource('asx2', options);
    expect(mock).toBeInstanceOf(MockSource);
    expect(asx).toBeInstanceOf(AsxSource);
    expect(asx2).toBeInstanceOf(Asx2Source);
    expect([mock.name, asx.name, asx2.name]).toEqual(['mock', 'asx', 'asx2']);
    expect([mock.marketWide, asx.marketWide, asx2.marketWide]).toEqual([false, false, true]);
    expect((await asx.latest('BHP')).length).toBeGreaterThan(0);
    expect((await asx2.latestMarket?.())?.length).toBeGreaterThan(0);
    await Promise.all([mock.close(), asx.close(), asx2.close()]);
  });

  it('speaks the ASX per-company shape at a configured westpac or iress base URL', async () => {
    for (const name of ['westpac', 'iress'] as const) {
      const source = createSource(name, { ...base, westpacBaseUrl: standIn.url, iressBaseUrl: standIn.url });
      expect(source).toMatchObject({ name, marketWide: false });
      const latest = await source.latest('BHP');
      expect(latest.map((a) => a.sourceKey)).toEqual(
        standIn
          .announcements('BHP')
          .slice(0, 20)
          .map((a) => a.id),
      );
      await source.close();
    }
  });
});
