import { ErrorCode, Topics, WidgetStock } from '@irp/proto';
import { AppError } from '@irp/platform';
import { ExecutionContext, HttpException } from '@nestjs/common';
import type { ServicesClient } from '../kafka/services.client';
import { memoryLimitStore } from '../limits/memory-limit-store';
import type { WidgetRequest } from './widget-context';
import {
  API_KEY_REQUIRED,
  STOCK_ARCHIVED,
  SUBSCRIPTION_EXPIRED,
  tooManyUnknownKeysMessage,
  UNKNOWN_API_KEY,
  WidgetKeyGuard,
} from './widget-key.guard';
import { WidgetRateLimiter, WidgetUnknownKeyLimiter, WidgetUnknownKeys } from './widget-rate-limiter';

const STOCK: WidgetStock = {
  ticker: 'BHP',
  exchange: 'ASX',
  combinedTicker: 'BHP:ASX',
  isin: '',
  companyName: 'BHP Group',
  websiteUrl: 'bhp.example.com',
  companyLogoUrl: '',
};
const KNOWN = 'known_key-1';
const ARCHIVED = 'archived-key';
const EXPIRED = 'expired-key';
const UNKNOWN_LOOKUPS = 20;
const CONFIG = {
  WIDGET_RATE_LIMIT: 3,
  WIDGET_RATE_WINDOW_MS: 60_000,
  WIDGET_UNKNOWN_KEY_LOOKUPS_PER_ADDRESS: UNKNOWN_LOOKUPS,
};

/**
 * The guard on its own: the stocks service's `stocks.widget-lookup` answered from a table (its own
 * behaviour is covered by the integration tests), counting the lookups the guard makes.
 */
function setup(config = CONFIG) {
  const store = memoryLimitStore();
  const limiter = new WidgetRateLimiter(store, config);
  const lookups: string[] = [];
  const services = {
    request: async (topic: string, payload: { apiKey: string }) => {
      expect(topic).toBe(Topics.StocksWidgetLookup);
      lookups.push(payload.apiKey);
      if (payload.apiKey === KNOWN)
        return { stockId: 'id-1', archived: false, subscriptionExpired: false, stock: STOCK };
      if (payload.apiKey === ARCHIVED)
        return { stockId: 'id-2', archived: true, subscriptionExpired: false, stock: STOCK };
      if (payload.apiKey === EXPIRED)
        return { stockId: 'id-3', archived: false, subscriptionExpired: true, stock: STOCK };
      throw new AppError(ErrorCode.Unauthenticated, 'Unknown API key');
    },
  } as unknown as ServicesClient;
  const unknownKeys = new WidgetUnknownKeys();
  const addressLimiter = new WidgetUnknownKeyLimiter(store, config);
  const guard = new WidgetKeyGuard(services, limiter, unknownKeys, addressLimiter);

  const call = async (apiKey: string | undefined, ip = '203.0.113.7') => {
    const headers: Record<string, string> = {};
    const req = {
      query: apiKey === undefined ? {} : { apiKey },
      header: () => undefined,
      ip,
    } as unknown as WidgetRequest;
    const res = { setHeader: (name: string, value: string) => (headers[name] = value) };
    const context = {
      switchToHttp: () => ({ getRequest: () => req, getResponse: () => res }),
    } as unknown as ExecutionContext;
    try {
      await guard.canActivate(context);
      return { status: 200, message: '', headers, widget: req.widget };
    } catch (err) {
      if (err instanceof AppError)
        return { status: err.code === ErrorCode.NotFound ? 404 : 401, message: err.message, headers };
      if (err instanceof HttpException) return { status: err.getStatus(), message: err.message, headers };
      throw err;
    }
  };
  return { call, lookups, unknownKeys };
}

describe('WidgetKeyGuard', () => {
  it('puts the stock of a known key on the request, with the rate headers', async () => {
    const { call, lookups } = setup();
    const ok = await call(KNOWN);
    expect(ok).toMatchObject({ status: 200, widget: { apiKey: KNOWN, stockId: 'id-1', stock: STOCK } });
    expect(ok.headers).toMatchObject({ 'X-RateLimit-Limit': '3', 'X-RateLimit-Remaining': '2' });
    expect(lookups).toEqual([KNOWN]);
    expect(await call(undefined)).toMatchObject({ status: 401, message: API_KEY_REQUIRED });
    expect(await call(ARCHIVED)).toMatchObject({ status: 404, message: STOCK_ARCHIVED });
    expect(await call(EXPIRED)).toMatchObject({ status: 404, message: SUBSCRIPTION_EXPIRED });
    expect((await call(EXPIRED)).widget).toBeUndefined();
  });

  it.each([
    ['over 100 characters', 'k'.repeat(101)],
    ['with a space', 'abc def'],
    ['with a dot', 'abc.def'],
    ['with a quote', "abc'--"],
    ['with a non-ASCII letter', 'clé'],
  ])('refuses a key %s with 401 before counting or asking', async (_, key) => {
    const { call, lookups } = setup();
    for (let i = 0; i < 10; i++)
      expect(await call(key)).toMatchObject({ status: 401, message: UNKNOWN_API_KEY });
    expect(lookups).toEqual([]);
    // Nothing was taken of the address's unknown-key budget: all of it is still there.
    for (let i = 0; i < UNKNOWN_LOOKUPS; i++) expect((await call(`guess-${i}`)).status).toBe(401);
    expect((await call('guess-next')).status).toBe(429);
  });

  it('accepts a key of exactly 100 letters, digits, - and _ as a candidate', async () => {
    const { call, lookups } = setup();
    const key = `${'aZ09-_'.repeat(16)}abcd`;
    expect(key).toHaveLength(100);
    expect(await call(key)).toMatchObject({ status: 401, message: UNKNOWN_API_KEY });
    expect(lookups).toEqual([key]);
  });

  it(`limits a key to its budget a window: 429 with Retry-After, another key unaffected`, async () => {
    const { call, lookups } = setup();
    for (let i = 0; i < CONFIG.WIDGET_RATE_LIMIT; i++) expect((await call(KNOWN)).status).toBe(200);
    const refused = await call(KNOWN);
    const retryAfter = Number(refused.headers['Retry-After']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(refused).toMatchObject({
      status: 429,
      message: `Too many requests for this API key: at most 3 every 60 seconds. Please retry after ${retryAfter} seconds.`,
      headers: { 'X-RateLimit-Remaining': '0' },
    });
    expect(lookups).toHaveLength(CONFIG.WIDGET_RATE_LIMIT);
    expect((await call(ARCHIVED)).status).toBe(404);
  });

  it('asks about an unknown key once, then answers 401 from memory', async () => {
    const { call, lookups, unknownKeys } = setup();
    for (let i = 0; i < 5; i++)
      expect(await call('no-such-key')).toMatchObject({ status: 401, message: UNKNOWN_API_KEY });
    expect(lookups).toEqual(['no-such-key']);
    expect(unknownKeys.has('no-such-key')).toBe(true);
  });

  it(`allows an address ${UNKNOWN_LOOKUPS} unknown-key lookups a window, then 429 for it alone`, async () => {
    const { call, lookups } = setup();
    for (let i = 0; i < UNKNOWN_LOOKUPS; i++) expect((await call(`guess-${i}`)).status).toBe(401);
    const refused = await call('guess-next');
    expect(refused.status).toBe(429);
    expect(refused.message).toBe(tooManyUnknownKeysMessage(Number(refused.headers['Retry-After'])));
    // Its real keys wait too; another address is unaffected.
    expect((await call(KNOWN)).status).toBe(429);
    expect((await call(KNOWN, '198.51.100.1')).status).toBe(200);
    expect(lookups).toHaveLength(UNKNOWN_LOOKUPS + 1);
  });

  it('never holds an address serving a real widget to the unknown-key budget', async () => {
    const { call } = setup({ ...CONFIG, WIDGET_RATE_LIMIT: 1000 });
    for (let i = 0; i < UNKNOWN_LOOKUPS * 3; i++) expect((await call(KNOWN)).status).toBe(200);
    // Its whole unknown-key budget is still there.
    for (let i = 0; i < UNKNOWN_LOOKUPS; i++) expect((await call(`guess-${i}`)).status).toBe(401);
    expect((await call('guess-next')).status).toBe(429);
  });
});
