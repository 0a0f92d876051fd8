import { ConfigError } from '@irp/platform';
import { announcementsService } from './app.module';

const env = (extra: NodeJS.ProcessEnv) => ({
  KAFKA_BROKERS: 'a:1',
  DATABASE_URL: 'postgres://x@127.0.0.1/db',
  ...extra,
});
const load = (extra: NodeJS.ProcessEnv) => announcementsService.loadConfig(env(extra));
const problems = (extra: NodeJS.ProcessEnv) => {
  try {
    load(extra);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('the configuration was accepted');
};

describe('announcements config: production never runs on the mock source', () => {
  it('lets development and tests start without a feed (the mock source)', () => {
    expect(load({}).ASX_BASE_URL).toBeUndefined();
    expect(
      load({ NODE_ENV: 'test', DEFAULT_ANNOUNCEMENT_SERVICE: 'mock' }).DEFAULT_ANNOUNCEMENT_SERVICE,
    ).toBe('mock');
  });

  it('refuses production without a feed URL, naming the settings', () => {
    expect(problems({ NODE_ENV: 'production' })).toContain(
      'ASX_BASE_URL: No announcement feed is configured: set ASX_BASE_URL (or WESTPAC_BASE_URL or IRESS_BASE_URL); production never falls back to the mock source',
    );
    // ASX2's history comes from the per-company feed: alone it is no feed.
    expect(problems({ NODE_ENV: 'production', ASX2_BASE_URL: 'https://feed.example' })).toContain(
      'No announcement feed is configured',
    );
  });

  it('refuses mock as the default source in production, and a default without its feed', () => {
    const feed = {
      NODE_ENV: 'production',
      ASX_BASE_URL: 'https://feed.example',
      // Production refuses the repository's development secrets.
      ACTOR_SIGNING_SECRET: 'announcements-config-test-secret-0123456789',
    };
    expect(problems({ ...feed, DEFAULT_ANNOUNCEMENT_SERVICE: 'mock' })).toContain(
      'DEFAULT_ANNOUNCEMENT_SERVICE: The mock announcement service is not available in production',
    );
    expect(problems({ ...feed, DEFAULT_ANNOUNCEMENT_SERVICE: 'iress' })).toContain(
      'DEFAULT_ANNOUNCEMENT_SERVICE: iress has no feed URL configured (configured: asx, asx2)',
    );
    expect(load(feed).NODE_ENV).toBe('production');
    expect(
      load({ ...feed, ASX_BASE_URL: undefined, WESTPAC_BASE_URL: 'https://w.example' }).WESTPAC_BASE_URL,
    ).toBe('https://w.example');
  });
});
