import { INestApplication } from '@nestjs/common';
import { KafkaRequester } from '@irp/platform';
import {
  createTestRequester,
  dropSchema,
  expectAppError,
  serviceTestEnv,
  startServiceProcess,
} from '@irp/platform/testing';
import { Topics } from '@irp/proto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { MOCK_IN_PRODUCTION_MESSAGE } from '../src/config';
import { startAnnouncementsService } from '../src/main';
import { SourceProvider } from '../src/ingestion/source-provider';
import { ADMIN, ERROR_EMAIL, holdSingletonJob, PROJECTION_BOOTSTRAP_JOB } from './polling-harness';

jest.setTimeout(300_000);

/**
 * Production never runs on the mock source (it makes up price-sensitive announcements for real tickers,
 * which auto-send would mail to real subscribers): the service refuses to start without a feed or with mock
 * as the default, a settings save choosing mock is refused, and a row stored as mock earlier polls nothing.
 */

/** No feed configured, whatever the test runner's environment holds. */
const NO_FEEDS = { ASX_BASE_URL: '', ASX2_BASE_URL: '', WESTPAC_BASE_URL: '', IRESS_BASE_URL: '' };
/** Never asked (the poll interval is an hour); https, as production requires of a feed. */
const FEED = 'https://127.0.0.1:9/asx-feed';
/** Production refuses the repository's development secrets: the service and this test's actor use this one. */
const ACTOR_SIGNING_SECRET = 'production-source-test-actor-secret-0123456789';

/** Why the service refused to start (its output); a process that started is stopped, failing the test. */
async function refusal(env: NodeJS.ProcessEnv): Promise<string> {
  const started = await startServiceProcess('announcements', { env, roles: ['api'] }).catch(
    (err: Error) => err,
  );
  if (started instanceof Error) return started.message;
  await started.stop();
  throw new Error('the service started');
}

describe('announcements in production: no mock source', () => {
  describe('started with a feed', () => {
    let app: INestApplication;
    let requester: KafkaRequester;
    let db: DataSource;
    let dataDir: string;
    let releaseBootstrap: (() => Promise<void>) | undefined;
    const settings = {
      errorEmail: ERROR_EMAIL,
      hourlyAutoSendLimit: 10,
      dailyAutoSendLimit: 30,
      disablePollUntil: null,
      useNightmare: false,
    };

    beforeAll(async () => {
      await dropSchema('announcements');
      // No stocks service here: its projection's bootstrap request would hold up shutdown until it timed out.
      releaseBootstrap = await holdSingletonJob(PROJECTION_BOOTSTRAP_JOB);
      dataDir = mkdtempSync(join(tmpdir(), 'irp-production-source-'));
      app = await startAnnouncementsService({
        ...serviceTestEnv('announcements'),
        ...NO_FEEDS,
        NODE_ENV: 'production',
        ACTOR_SIGNING_SECRET,
        ASX_BASE_URL: FEED,
        DATA_DIR: dataDir,
        POLL_INTERVAL_MS: '3600000',
        ROLES: 'api',
      });
      db = app.get(DataSource);
      requester = await createTestRequester(
        [Topics.AnnouncementsSystemSettings, Topics.AnnouncementsSaveSystemSettings],
        10_000,
        { actorSecret: ACTOR_SIGNING_SECRET },
      );
    });

    afterAll(async () => {
      await requester?.close();
      await app?.close();
      await releaseBootstrap?.();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    });

    it('starts a fresh install on the feed and refuses a save choosing mock with 400, changing nothing', async () => {
      const before = (await requester.request(Topics.AnnouncementsSystemSettings, { actor: ADMIN })).settings;
      expect(before.announcementService).toBe('asx');
      await expectAppError(
        requester.request(Topics.AnnouncementsSaveSystemSettings, {
          actor: ADMIN,
          settings: { ...settings, announcementService: 'mock' },
        }),
        'BAD_REQUEST',
        MOCK_IN_PRODUCTION_MESSAGE,
      );
      expect(
        (await requester.request(Topics.AnnouncementsSystemSettings, { actor: ADMIN })).settings,
      ).toEqual(before);
      const saved = await requester.request(Topics.AnnouncementsSaveSystemSettings, {
        actor: ADMIN,
        settings: { ...settings, announcementService: 'asx' },
      });
      expect(saved.settings).toMatchObject({ announcementService: 'asx', errorEmail: ERROR_EMAIL });
    });

    it('polls nothing from a settings row stored as mock before production refused it', async () => {
      await db.query(`UPDATE announcements.system_settings SET announcement_service = 'mock'`);
      await expect(app.get(SourceProvider).get()).rejects.toThrow(MOCK_IN_PRODUCTION_MESSAGE);
    });
  });

  it('refuses to start without a feed URL, naming the setting', async () => {
    expect(await refusal({ ...NO_FEEDS, NODE_ENV: 'production' })).toMatch(
      /exited \(1\)[\s\S]*ASX_BASE_URL: No announcement feed is configured: set ASX_BASE_URL \(or WESTPAC_BASE_URL or IRESS_BASE_URL\); production never falls back to the mock source/,
    );
  });

  it('refuses to start with mock as the default source', async () => {
    expect(
      await refusal({
        ...NO_FEEDS,
        NODE_ENV: 'production',
        ACTOR_SIGNING_SECRET,
        ASX_BASE_URL: FEED,
        DEFAULT_ANNOUNCEMENT_SERVICE: 'mock',
      }),
    ).toContain(`DEFAULT_ANNOUNCEMENT_SERVICE: ${MOCK_IN_PRODUCTION_MESSAGE}`);
  });
});
