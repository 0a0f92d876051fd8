import { loadGatewayConfig } from '../config';

const DB = 'postgres://x@y/z';

describe('settings of the stocks, dashboard and widget modules', () => {
  it('have defaults', () => {
    const c = loadGatewayConfig({ KAFKA_BROKERS: 'a:1', DATABASE_URL: DB });
    expect(c).toMatchObject({
      WIDGET_RATE_LIMIT: 300,
      WIDGET_RATE_WINDOW_MS: 60_000,
      STOCK_DIRECTORY_CACHE_MS: 5000,
      STOCK_DIRECTORY_CACHE_SIZE: 5000,
      DASHBOARD_CONTRIBUTOR_TIMEOUT_MS: 3000,
    });
  });

  it('are validated at boot', () => {
    expect(() =>
      loadGatewayConfig({
        KAFKA_BROKERS: 'a:1',
        DATABASE_URL: DB,
        WIDGET_RATE_LIMIT: '0',
        WIDGET_RATE_WINDOW_MS: 'soon',
      }),
    ).toThrow(/WIDGET_RATE_LIMIT[\s\S]*WIDGET_RATE_WINDOW_MS/);
    expect(() =>
      loadGatewayConfig({ KAFKA_BROKERS: 'a:1', DATABASE_URL: DB, STOCK_DIRECTORY_CACHE_MS: '-1' }),
    ).toThrow(/STOCK_DIRECTORY_CACHE_MS/);
  });
});
