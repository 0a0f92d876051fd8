import { join } from 'node:path';
import {
  AnsweringServer,
  startAnsweringServer,
  useVendorContract,
  VendorContract,
  VENDOR_CONTRACT_SETUP_MS,
} from '@irp/platform/testing';
import {
  asxTradingDaysBefore,
  DEMO_MARKET_DATA_API_KEY,
  previousAsxTradingDay,
  sydneyDayOf,
} from '@irp/proto';
import { startMarketStandIn } from '@irp/standins/market';
import {
  MarketDataClient,
  MarketDataClientOptions,
  TRADES_PAGE_SIZE,
  TradesNotPublishedError,
  UnknownSecurityError,
} from './market-data-client';

/**
 * No market-data provider publishes a description: this one is OUR interface, the one a provider adapter must
 * meet, written from docs/api/reports.md ("The market-data provider") (vendor-descriptions/market-data).
 */
const DESCRIPTION = join(__dirname, '../../../../vendor-descriptions/market-data/market-data.openapi.yaml');
/** Every operation the adapter calls. */
const OPERATIONS = ['getQuotes', 'getDailyBars', 'getTrades', 'getBrokers'];

/** The stand-in's clock: a Monday, so the Friday before is inside the publication lag (T+3). */
const NOW = new Date('2025-06-30T02:00:00Z');
const PUBLISHED = asxTradingDaysBefore(sydneyDayOf(NOW), 3)[0]!;
const NOT_PUBLISHED_YET = previousAsxTradingDay(sydneyDayOf(NOW));
const WEEK_BEFORE = asxTradingDaysBefore(sydneyDayOf(NOW), 5)[0]!;
/** More trades a day than one page of TRADES_PAGE_SIZE (BHP's mean is 900 at scale 1), so paging is used. */
const TRADES_SCALE = 10;

const QUOTES = /^\/v1\/quotes$/;
const OHLCV = /^\/v1\/securities\/[^/]+\/ohlcv$/;
const TRADES = /^\/v1\/securities\/[^/]+\/trades$/;
const BROKERS = /^\/v1\/brokers$/;

type Item = Record<string, unknown>;
const clone = <T>(value: T): T => structuredClone(value);
const clientOf = (baseUrl: string, options: Partial<MarketDataClientOptions> = {}) =>
  new MarketDataClient({
    baseUrl,
    apiKey: DEMO_MARKET_DATA_API_KEY,
    timeoutMs: 10_000,
    maxConcurrent: 2,
    perMinute: 1000,
    maxAttempts: 2,
    maxRetryAfterMs: 0,
    ...options,
  });

/**
 * The market-data adapter and the market stand-in against the interface docs/api/reports.md documents (ADR
 * 0014): every call goes through a recording proxy to the stand-in; each request must be one the interface
 * takes, each reply (its errors too) one it describes.
 */
describe('the market-data adapter and stand-in against the documented provider interface', () => {
  const rig = useVendorContract({
    load: () => VendorContract.load(DESCRIPTION, { operations: OPERATIONS }),
    startStandIn: () => startMarketStandIn({ port: 0, now: () => NOW, tradesScale: TRADES_SCALE }),
  });
  const { exchangesOf, problemsOf } = rig;

  beforeAll(async () => {
    const client = clientOf(rig.proxy.url);

    // Every call the adapter makes: quotes (one code not listed), a week's bars, a published day's trades
    // over several pages, the brokers; then a day not published yet, an unknown code on both per-security
    // routes, a wrong key and a busy answer (429 with Retry-After, retried).
    expect((await client.quotes(['BHP', 'CSL', 'NOQ1'])).map((q) => q.code)).toEqual(['BHP', 'CSL']);
    expect((await client.dailyBars('BHP', WEEK_BEFORE, NOT_PUBLISHED_YET)).length).toBe(5);
    expect((await client.trades('BHP', PUBLISHED)).length).toBeGreaterThan(TRADES_PAGE_SIZE);
    expect((await client.brokers()).length).toBeGreaterThan(0);
    await expect(client.trades('BHP', NOT_PUBLISHED_YET)).rejects.toBeInstanceOf(TradesNotPublishedError);
    await expect(client.dailyBars('NOQ1', WEEK_BEFORE, PUBLISHED)).rejects.toBeInstanceOf(
      UnknownSecurityError,
    );
    await expect(client.trades('NOQ1', PUBLISHED)).rejects.toBeInstanceOf(UnknownSecurityError);
    await expect(clientOf(rig.proxy.url, { apiKey: 'wrong-key' }).brokers()).rejects.toThrow(/answered 401/);
    rig.standIn.faults.set({ kind: 'fail', route: 'brokers', status: 429, times: 1, retryAfterSeconds: 1 });
    expect((await client.brokers()).length).toBeGreaterThan(0);
  }, VENDOR_CONTRACT_SETUP_MS);

  it.each([
    ['getQuotes', QUOTES],
    ['getDailyBars', OHLCV],
    ['getTrades', TRADES],
    ['getBrokers', BROKERS],
  ])('%s: each request the adapter sent and each reply the stand-in gave is as described', (id, path) => {
    const exchanges = exchangesOf('GET', path);
    expect(exchanges.length).toBeGreaterThan(0);
    for (const exchange of exchanges) expect(problemsOf(exchange)).toEqual({ operationId: id, problems: [] });
  });

  it('the refusals are the described error bodies: a wrong key, two unknown codes, a day not published, a busy answer', () => {
    const refused = rig.proxy.exchanges.filter((e) => e.response.status >= 400);
    expect(refused.map((e) => [e.request.path, e.response.status])).toEqual([
      [`/v1/securities/BHP/trades`, 404],
      [`/v1/securities/NOQ1/ohlcv`, 404],
      [`/v1/securities/NOQ1/trades`, 404],
      ['/v1/brokers', 401],
      ['/v1/brokers', 429],
    ]);
    for (const exchange of refused) {
      expect(exchange.response.body).toMatchObject({
        error: { code: exchange.response.status, message: expect.any(String) },
      });
      expect(problemsOf(exchange).problems).toEqual([]);
    }
    expect(refused[0]!.response.body).toMatchObject({ error: { reason: 'not_published_yet' } });
    expect(refused[1]!.response.body).not.toMatchObject({ error: { reason: expect.anything() } });
    expect(refused[4]!.response.headers['retry-after']).toBe('1');
  });

  it('sends the API key in X-Api-Key on every call', () => {
    for (const exchange of rig.proxy.exchanges)
      expect(exchange.request.headers['x-api-key']).toBe(
        exchange.response.status === 401 ? 'wrong-key' : DEMO_MARKET_DATA_API_KEY,
      );
  });

  it('reads a day page by page, asking 5,000 a page, until the page without a next', () => {
    const pages = exchangesOf('GET', /^\/v1\/securities\/BHP\/trades$/).filter(
      (e) => e.request.query?.date === PUBLISHED,
    );
    expect(pages.length).toBeGreaterThan(1);
    expect(pages.map((e) => e.request.query)).toEqual(
      pages.map((_, i) => ({ date: PUBLISHED, page: String(i + 1), pageSize: String(TRADES_PAGE_SIZE) })),
    );
    const paging = pages.map((e) => (e.response.body as { paging: { next: string | null } }).paging);
    expect(paging.slice(0, -1).every((p) => p.next !== null)).toBe(true);
    expect(paging.at(-1)!.next).toBeNull();
  });

  it('lists a code it does not know under unknown, not as an error', () => {
    const [quotes] = exchangesOf('GET', QUOTES);
    expect(quotes!.request.query).toEqual({ codes: 'BHP,CSL,NOQ1' });
    expect(quotes!.response.body).toMatchObject({ unknown: ['NOQ1'] });
  });

  describe('shown to fail on a deliberate mismatch', () => {
    const { firstReply, firstRequest } = rig;

    it('a trades reply with a field renamed (buyerBrokerId -> buyerBroker)', () => {
      const body = firstReply(TRADES);
      const [trade] = body.data as Item[];
      trade!.buyerBroker = trade!.buyerBrokerId;
      delete trade!.buyerBrokerId;
      expect(rig.contract.validateResponse('getTrades', { status: 200, body })).toEqual(
        expect.arrayContaining([
          "getTrades 200: /data/0 must have required property 'buyerBrokerId'",
          'getTrades 200: /data/0 must NOT have additional properties (buyerBroker)',
        ]),
      );
    });

    it('a quotes reply without the codes it does not list (unknown)', () => {
      const body = firstReply(QUOTES);
      delete body.unknown;
      expect(rig.contract.validateResponse('getQuotes', { status: 200, body })).toEqual([
        "getQuotes 200: / must have required property 'unknown'",
      ]);
    });

    it('a trades request with a query parameter the interface does not take (limit)', () => {
      const request = firstRequest(TRADES);
      request.query.limit = request.query.pageSize as string;
      delete request.query.pageSize;
      expect(rig.contract.validateRequest(request).problems).toEqual([
        'getTrades: /query must NOT have additional properties (limit)',
      ]);
    });

    it('a trades request for more than 10,000 a page', () => {
      const request = firstRequest(TRADES);
      request.query.pageSize = '20000';
      expect(rig.contract.validateRequest(request).problems).toEqual([
        'getTrades: /query/pageSize must be <= 10000',
      ]);
    });

    it('an error body of another shape (the stand-in kit’s default { error: message })', () => {
      expect(
        rig.contract.validateResponse('getBrokers', {
          status: 401,
          body: { error: 'Invalid or missing API key' },
        }),
      ).toEqual(['getBrokers 401: /error must be object']);
    });

    it('a day not published yet with another reason than not_published_yet', () => {
      const [notYet] = rig.proxy.exchanges.filter((e) => e.response.status === 404);
      const body = clone(notYet!.response.body) as { error: Item };
      body.error.reason = 'not_yet_available';
      expect(rig.contract.validateResponse('getTrades', { status: 404, body })).toEqual(
        expect.arrayContaining([
          'getTrades 404: /error/reason must be equal to one of the allowed values (["not_published_yet"])',
          'getTrades 404: /error must NOT have additional properties (reason)',
        ]),
      );
    });
  });

  /** The adapter reads the interface's own examples, served as they are, into its results. */
  describe('the adapter reads the described examples', () => {
    let server: AnsweringServer;
    let fromExamples: MarketDataClient;
    const example = (operationId: string, status = 200, name?: string) =>
      rig.contract
        .examples(operationId)
        .responses.find((e) => e.status === status && (name === undefined || e.name === name))!.value;

    beforeAll(async () => {
      server = await startAnsweringServer(({ path }) => {
        if (QUOTES.test(path)) return { status: 200, body: example('getQuotes') };
        if (BROKERS.test(path)) return { status: 200, body: example('getBrokers') };
        if (path.startsWith('/v1/securities/NOQ1/'))
          return { status: 404, body: example('getDailyBars', 404) };
        if (OHLCV.test(path)) return { status: 200, body: example('getDailyBars') };
        if (path === '/v1/securities/NYP/trades')
          return { status: 404, body: example('getTrades', 404, 'notPublishedYet') };
        if (TRADES.test(path)) return { status: 200, body: example('getTrades') };
        return { status: 401, body: example('getBrokers', 401) };
      });
      fromExamples = clientOf(server.url, { maxAttempts: 1 });
    });
    afterAll(() => server?.close());

    it('each example is a reply of its operation', () => {
      for (const id of OPERATIONS)
        for (const { status, value } of rig.contract.examples(id).responses)
          expect(rig.contract.validateResponse(id, { status: status!, body: value })).toEqual([]);
    });

    it('quotes, a null figure kept as null', async () => {
      const quotes = await fromExamples.quotes(['BHP', 'XYZ', 'NOQ1']);
      expect(quotes.map((q) => [q.code, q.last, q.bid])).toEqual([
        ['BHP', 44.8, 44.79],
        ['XYZ', 0.12, null],
      ]);
    });

    it('bars, trades and brokers', async () => {
      expect((await fromExamples.dailyBars('BHP', '2025-06-26', '2025-06-27')).map((b) => b.close)).toEqual([
        44.45, 44.8,
      ]);
      expect(
        (await fromExamples.trades('BHP', '2025-06-25')).map((t) => [
          t.seq,
          t.buyerBrokerId,
          t.sellerBrokerId,
        ]),
      ).toEqual([
        [1, 101, 137],
        [2, 137, 110],
      ]);
      expect(await fromExamples.brokers()).toEqual([
        { id: 101, name: 'Macquarie Equities' },
        { id: 137, name: 'Tasman Ridge Securities' },
      ]);
    });

    it('the two 404s told apart by their bodies', async () => {
      await expect(fromExamples.trades('NYP', '2025-06-27')).rejects.toBeInstanceOf(TradesNotPublishedError);
      await expect(fromExamples.trades('NOQ1', '2025-06-25')).rejects.toBeInstanceOf(UnknownSecurityError);
      await expect(fromExamples.dailyBars('NOQ1', '2025-06-25', '2025-06-27')).rejects.toBeInstanceOf(
        UnknownSecurityError,
      );
    });
  });
});
