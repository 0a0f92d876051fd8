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
      ACTOR_SIGNING_SECRET: 'a'.repeat(32),
    });
    expect(c.cookieSecure).toBe(true);
  });
  it("refuses in production the secrets published in the repository: compose's SESSION_SECRET, the actor-signing default", () => {
    const production = { KAFKA_BROKERS: 'a:1', NODE_ENV: 'production', ACTOR_SIGNING_SECRET: 'a'.repeat(32) };
    expect(() =>
      loadGatewayConfig({ ...production, SESSION_SECRET: 'compose-local-secret-change-me-0123456789abcdef' }),
    ).toThrow(/SESSION_SECRET: a development value published in this repository/);
    expect(() =>
      loadGatewayConfig({ ...production, SESSION_SECRET: 's'.repeat(32), ACTOR_SIGNING_SECRET: undefined }),
    ).toThrow(/ACTOR_SIGNING_SECRET: a development value published in this repository/);
    // Outside production the development values are fine (make up, the tests).
    expect(
      loadGatewayConfig({
        KAFKA_BROKERS: 'a:1',
        SESSION_SECRET: 'compose-local-secret-change-me-0123456789abcdef',
      }).SESSION_SECRET,
    ).toBe('compose-local-secret-change-me-0123456789abcdef');
  });
});
