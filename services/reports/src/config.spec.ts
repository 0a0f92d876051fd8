import { ConfigError } from '@irp/platform';
import { DEMO_MARKET_DATA_API_KEY } from '@irp/proto';
import { reportsService } from './app.module';

const load = (extra: NodeJS.ProcessEnv) =>
  reportsService.loadConfig({ KAFKA_BROKERS: 'a:1', DATABASE_URL: 'postgres://x@127.0.0.1/db', ...extra });

const production = {
  NODE_ENV: 'production',
  // Production refuses the repository's development secrets.
  ACTOR_SIGNING_SECRET: 'reports-config-test-secret-0123456789abcdef',
  MARKET_DATA_BASE_URL: 'https://market.example',
};

const DEMO_KEY_REFUSED =
  "MARKET_DATA_API_KEY: the market-data stand-in's demo key, published in this repository; set the provider's key in production";

describe("reports config: production never calls a provider with the repository's demo key", () => {
  it('takes the demo key in development and tests (the stand-in of make up)', () => {
    expect(load({ MARKET_DATA_BASE_URL: 'http://127.0.0.1:3257' }).MARKET_DATA_API_KEY).toBe(
      DEMO_MARKET_DATA_API_KEY,
    );
  });

  it('refuses the demo key in production, given or by default', () => {
    expect(() => load(production)).toThrow(ConfigError);
    expect(() => load(production)).toThrow(DEMO_KEY_REFUSED);
    expect(() => load({ ...production, MARKET_DATA_API_KEY: DEMO_MARKET_DATA_API_KEY })).toThrow(
      DEMO_KEY_REFUSED,
    );
  });

  it("starts in production with the provider's own key, or with no provider at all (its routes say so)", () => {
    expect(load({ ...production, MARKET_DATA_API_KEY: 'a-real-provider-key' }).MARKET_DATA_API_KEY).toBe(
      'a-real-provider-key',
    );
    expect(load({ ...production, MARKET_DATA_BASE_URL: '' }).MARKET_DATA_BASE_URL).toBeUndefined();
  });

  it('refuses a provider URL that is not https in production, naming it', () => {
    expect(() =>
      load({ ...production, MARKET_DATA_BASE_URL: 'http://market.example', MARKET_DATA_API_KEY: 'k' }),
    ).toThrow(
      'MARKET_DATA_BASE_URL: must be an https:// URL in production (http://market.example): a vendor is only spoken to over TLS',
    );
  });
});
