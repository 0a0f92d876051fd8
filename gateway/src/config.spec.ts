import { DEV_SEAL_KEYS, newSealKeyPair } from '@irp/platform';
import { loadGatewayConfig } from './config';

const DB = 'postgres://x@y/z';
/** Production's own seal keys' public halves (issue 34). */
const SEAL_KEYS = {
  USERS_SEAL_PUBLIC_KEY: newSealKeyPair().publicKey,
  EMAIL_MARKETING_SEAL_PUBLIC_KEY: newSealKeyPair().publicKey,
};

describe('gateway config', () => {
  it('applies defaults', () => {
    const c = loadGatewayConfig({ KAFKA_BROKERS: 'a:1, b:2', DATABASE_URL: DB });
    expect(c.KAFKA_BROKERS).toEqual(['a:1', 'b:2']);
    expect(c.PORT).toBe(3000);
    expect(c.cookieSecure).toBe(false);
    expect(c.ANNOUNCEMENT_MAX_PDF_BYTES).toBe(20 * 1024 * 1024);
    expect(c.STOCK_PAGE_CONTRIBUTOR_TIMEOUT_MS).toBe(1500);
    expect(c.TRUST_PROXY).toEqual(['loopback']);
    expect(c.JSON_BODY_MAX_BYTES).toBe(100 * 1024);
  });
  it('needs the database of the shared rate limits', () => {
    expect(() => loadGatewayConfig({ KAFKA_BROKERS: 'a:1' })).toThrow(/DATABASE_URL/);
    expect(() => loadGatewayConfig({ KAFKA_BROKERS: 'a:1', DATABASE_URL: 'mysql://x' })).toThrow(
      /DATABASE_URL must be a postgres:\/\/ URL/,
    );
  });
  it.each([
    ['1', 1],
    ['2', 2],
    ['false', false],
    ['10.0.0.0/8, 192.168.1.7', ['10.0.0.0/8', '192.168.1.7']],
    ['loopback,fd00::/8,::1', ['loopback', 'fd00::/8', '::1']],
  ])('reads TRUST_PROXY %s as a hop count, a list or none', (value, expected) => {
    expect(
      loadGatewayConfig({ KAFKA_BROKERS: 'a:1', DATABASE_URL: DB, TRUST_PROXY: value }).TRUST_PROXY,
    ).toEqual(expected);
  });
  it.each(['10.0.0.0/33', 'ingress.local', '99', '10.0.0.1/8/1', 'true'])(
    'refuses TRUST_PROXY %s with a message naming it',
    (value) => {
      expect(() => loadGatewayConfig({ KAFKA_BROKERS: 'a:1', DATABASE_URL: DB, TRUST_PROXY: value })).toThrow(
        /TRUST_PROXY/,
      );
    },
  );
  it('refuses to start in production without TRUST_PROXY, and believes a local proxy by default elsewhere', () => {
    const production = {
      KAFKA_BROKERS: 'a:1',
      DATABASE_URL: DB,
      NODE_ENV: 'production',
      ...SEAL_KEYS,
      SESSION_SECRET: 's'.repeat(32),
      OPS_PORT: '3001',
      ACTOR_SIGNING_SECRET: 'a'.repeat(32),
    };
    expect(() => loadGatewayConfig(production)).toThrow(
      /TRUST_PROXY must be set in production: the proxies in front of the gateway \(1 for one ingress hop/,
    );
    expect(loadGatewayConfig({ ...production, TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1);
    expect(loadGatewayConfig({ ...production, TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
    expect(loadGatewayConfig({ ...production, TRUST_PROXY: '10.0.0.0/8' }).TRUST_PROXY).toEqual([
      '10.0.0.0/8',
    ]);
    for (const NODE_ENV of ['development', 'test'])
      expect(loadGatewayConfig({ KAFKA_BROKERS: 'a:1', DATABASE_URL: DB, NODE_ENV }).TRUST_PROXY).toEqual([
        'loopback',
      ]);
  });
  it('lists every problem at boot', () => {
    expect(() => loadGatewayConfig({ PORT: 'abc', NODE_ENV: 'staging' })).toThrow(
      /KAFKA_BROKERS[\s\S]*PORT|PORT[\s\S]*KAFKA_BROKERS/,
    );
  });
  it("needs the services' own seal keys in production, and uses the development pairs elsewhere", () => {
    const production = {
      KAFKA_BROKERS: 'a:1',
      DATABASE_URL: DB,
      NODE_ENV: 'production',
      SESSION_SECRET: 's'.repeat(32),
      OPS_PORT: '3001',
      ACTOR_SIGNING_SECRET: 'a'.repeat(32),
      TRUST_PROXY: '1',
    };
    expect(() => loadGatewayConfig(production)).toThrow(/USERS_SEAL_PUBLIC_KEY: must be set in production/);
    expect(() =>
      loadGatewayConfig({
        ...production,
        ...SEAL_KEYS,
        EMAIL_MARKETING_SEAL_PUBLIC_KEY: DEV_SEAL_KEYS['email-marketing'].publicKey,
      }),
    ).toThrow(/EMAIL_MARKETING_SEAL_PUBLIC_KEY: a development value published in this repository/);
    expect(() => loadGatewayConfig({ ...production, ...SEAL_KEYS, USERS_SEAL_PUBLIC_KEY: 'short' })).toThrow(
      /USERS_SEAL_PUBLIC_KEY must be an X25519 key/,
    );
    expect(loadGatewayConfig({ ...production, ...SEAL_KEYS }).sealKeys).toEqual({
      users: SEAL_KEYS.USERS_SEAL_PUBLIC_KEY,
      'email-marketing': SEAL_KEYS.EMAIL_MARKETING_SEAL_PUBLIC_KEY,
    });
    expect(loadGatewayConfig({ KAFKA_BROKERS: 'a:1', DATABASE_URL: DB }).sealKeys).toEqual({
      users: DEV_SEAL_KEYS.users.publicKey,
      'email-marketing': DEV_SEAL_KEYS['email-marketing'].publicKey,
    });
  });
  it("takes the order form's minimum fill time (default 3 s) only below the token's maximum age (default 4 h)", () => {
    const base = { KAFKA_BROKERS: 'a:1', DATABASE_URL: DB };
    expect(loadGatewayConfig(base)).toMatchObject({
      ORDER_FORM_MIN_FILL_MS: 3000,
      ORDER_FORM_TOKEN_MAX_AGE_MS: 14_400_000,
    });
    expect(loadGatewayConfig({ ...base, ORDER_FORM_MIN_FILL_MS: '0' }).ORDER_FORM_MIN_FILL_MS).toBe(0);
    expect(() => loadGatewayConfig({ ...base, ORDER_FORM_MIN_FILL_MS: '-1' })).toThrow(
      /ORDER_FORM_MIN_FILL_MS/,
    );
    expect(() => loadGatewayConfig({ ...base, ORDER_FORM_MIN_FILL_MS: 'soon' })).toThrow(
      /ORDER_FORM_MIN_FILL_MS/,
    );
    expect(() =>
      loadGatewayConfig({ ...base, ORDER_FORM_MIN_FILL_MS: '120000', ORDER_FORM_TOKEN_MAX_AGE_MS: '60000' }),
    ).toThrow(/ORDER_FORM_MIN_FILL_MS must be less than ORDER_FORM_TOKEN_MAX_AGE_MS/);
  });
  it('demands a real SESSION_SECRET and secure cookies in production', () => {
    expect(() =>
      loadGatewayConfig({ KAFKA_BROKERS: 'a:1', DATABASE_URL: DB, NODE_ENV: 'production' }),
    ).toThrow(/SESSION_SECRET must be set in production/);
    const c = loadGatewayConfig({
      KAFKA_BROKERS: 'a:1',
      DATABASE_URL: DB,
      NODE_ENV: 'production',
      ...SEAL_KEYS,
      SESSION_SECRET: 's'.repeat(32),
      OPS_PORT: '3001',
      ACTOR_SIGNING_SECRET: 'a'.repeat(32),
      TRUST_PROXY: '1',
    });
    expect(c.cookieSecure).toBe(true);
  });
  it('keeps /health and /metrics off the public port in production, and the API docs off unless asked', () => {
    const production = {
      KAFKA_BROKERS: 'a:1',
      DATABASE_URL: DB,
      NODE_ENV: 'production',
      ...SEAL_KEYS,
      SESSION_SECRET: 's'.repeat(32),
      ACTOR_SIGNING_SECRET: 'a'.repeat(32),
      TRUST_PROXY: '1',
    };
    expect(() => loadGatewayConfig(production)).toThrow(/OPS_PORT must be set in production/);
    expect(loadGatewayConfig({ ...production, OPS_PORT: '3001' })).toMatchObject({
      OPS_PORT: 3001,
      OPS_HOST: '127.0.0.1',
      apiDocs: false,
    });
    expect(loadGatewayConfig({ ...production, OPS_PORT: '3001', API_DOCS: 'true' }).apiDocs).toBe(true);
    const development = loadGatewayConfig({ KAFKA_BROKERS: 'a:1', DATABASE_URL: DB });
    expect(development.OPS_PORT).toBeUndefined();
    expect(development.apiDocs).toBe(true);
    expect(loadGatewayConfig({ KAFKA_BROKERS: 'a:1', DATABASE_URL: DB, API_DOCS: 'false' }).apiDocs).toBe(
      false,
    );
    expect(() => loadGatewayConfig({ KAFKA_BROKERS: 'a:1', DATABASE_URL: DB, OPS_PORT: 'internal' })).toThrow(
      /OPS_PORT/,
    );
  });
  it("refuses in production the secrets published in the repository: compose's SESSION_SECRET, the actor-signing default", () => {
    const production = {
      KAFKA_BROKERS: 'a:1',
      DATABASE_URL: DB,
      NODE_ENV: 'production',
      ...SEAL_KEYS,
      OPS_PORT: '3001',
      ACTOR_SIGNING_SECRET: 'a'.repeat(32),
      TRUST_PROXY: '1',
    };
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
        DATABASE_URL: DB,
        SESSION_SECRET: 'compose-local-secret-change-me-0123456789abcdef',
      }).SESSION_SECRET,
    ).toBe('compose-local-secret-change-me-0123456789abcdef');
  });
});
