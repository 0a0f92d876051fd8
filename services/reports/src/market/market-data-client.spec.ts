import { VendorError } from '@irp/platform';
import {
  asxTradingDaysBefore,
  DEMO_MARKET_DATA_API_KEY,
  ErrorCode,
  previousAsxTradingDay,
  sydneyDayOf,
} from '@irp/proto';
import { startMarketStandIn } from '@irp/standins/market';
import {
  failure,
  MarketDataClient,
  NOT_PUBLISHED_YET,
  TradesNotPublishedError,
  UnknownSecurityError,
} from './market-data-client';

const notFound = (vendorMessage: string) =>
  new VendorError('reports:market-data', 'not-found', 'answered 404', { status: 404, vendorMessage });

describe('the market-data failure mapping', () => {
  it('a 404 with the reason not_published_yet is a day not published, whatever its message says', () => {
    const error = failure(notFound('Trades of 2026-11-27 are not available yet'), {
      code: 'BHP',
      day: '2026-11-27',
      reason: NOT_PUBLISHED_YET,
    });
    expect(error).toBeInstanceOf(TradesNotPublishedError);
    expect(error).toMatchObject({ code: ErrorCode.NotFound, security: 'BHP', day: '2026-11-27' });
    expect(
      failure(notFound('anything'), { code: 'BHP', day: '2026-11-27', reason: NOT_PUBLISHED_YET }),
    ).toBeInstanceOf(TradesNotPublishedError);
  });

  it('a 404 of a security without that reason is an unknown code, even when its message reads "not available yet"', () => {
    const unknown = failure(notFound('Unknown security NOQ1'), { code: 'NOQ1', day: '2026-11-27' });
    expect(unknown).toBeInstanceOf(UnknownSecurityError);
    expect(
      failure(notFound('Trades of 2026-11-27 are not available yet'), { code: 'BHP', day: '2026-11-27' }),
    ).toBeInstanceOf(UnknownSecurityError);
  });

  it('an outage is neither', () => {
    const outage = failure(
      new VendorError('reports:market-data', 'unavailable', 'answered 503', { status: 503 }),
      { code: 'BHP', day: '2026-11-27' },
    );
    expect(outage).not.toBeInstanceOf(TradesNotPublishedError);
    expect(outage).not.toBeInstanceOf(UnknownSecurityError);
    expect(outage.code).toBe(ErrorCode.ServiceUnavailable);
  });
});

describe('the market-data adapter against the stand-in (T+3)', () => {
  let standIn: Awaited<ReturnType<typeof startMarketStandIn>>;
  let client: MarketDataClient;

  beforeAll(async () => {
    standIn = await startMarketStandIn({ port: 0 });
    client = new MarketDataClient({
      baseUrl: standIn.url,
      apiKey: DEMO_MARKET_DATA_API_KEY,
      timeoutMs: 5000,
      maxConcurrent: 2,
      perMinute: 1000,
      maxAttempts: 1,
      maxRetryAfterMs: 0,
    });
  });
  afterAll(() => standIn.close());

  it('reads the two 404s apart from the answer, not its wording', async () => {
    const today = sydneyDayOf(new Date());
    await expect(client.trades('BHP', previousAsxTradingDay(today))).rejects.toBeInstanceOf(
      TradesNotPublishedError,
    );
    await expect(client.trades('NOQ1', asxTradingDaysBefore(today, 3)[0]!)).rejects.toBeInstanceOf(
      UnknownSecurityError,
    );
    expect((await client.trades('BHP', asxTradingDaysBefore(today, 3)[0]!)).length).toBeGreaterThanOrEqual(0);
  });
});
