import { loadGatewayConfig } from './config';

describe('gateway config', () => {
  it('applies defaults', () => {
    const c = loadGatewayConfig({ KAFKA_BROKERS: 'a:1, b:2' });
    expect(c.KAFKA_BROKERS).toEqual(['a:1', 'b:2']);
    expect(c.PORT).toBe(3000);
    expect(c.cookieSecure).toBe(false);
    expect(c.ANNOUNCEMENT_MAX_PDF_BYTES).toBe(20 * 1024 * 1024);
    expect(c.STOCK_PAGE_CONTRIBUTOR_TIMEOUT_MS).toBe(1500);
  });
  it('lists every problem at boot', () => {
    expect(() => loadGatewayConfig({ PORT: 'abc', NODE_ENV: 'staging' })).toThrow(
      /KAFKA_BROKERS[\s\S]*PORT|PORT[\s\S]*KAFKA_BROKERS/,
    );
  });
  it('demands a real SESSION_SECRET and secure cookies in production', () => {
    expect(() => loadGatewayConfig({ KAFKA_BROKERS: 'a:1', NODE_ENV: 'production' })).toThrow(
      /SESSION_SECRET must be set in production/,
    );
    const c = loadGatewayConfig({
      KAFKA_BROKERS: 'a:1',
      NODE_ENV: 'production',
      SESSION_SECRET: 's'.repeat(32),
    });
    expect(c.cookieSecure).toBe(true);
  });
});
