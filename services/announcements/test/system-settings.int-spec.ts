import { INestApplication } from '@nestjs/common';
import { KafkaRequester } from '@irp/platform';
import {
  createTestRequester,
  dropSchema,
  expectAppError,
  outboxEvents,
  ReceivedMessage,
  serviceTestEnv,
  TopicProbe,
} from '@irp/platform/testing';
import { SystemSettings, Topics } from '@irp/proto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { startAnnouncementsService } from '../src/main';
import { SYSTEM_SETTINGS_KEY } from '../src/settings/publish-system-settings';
import { ADMIN, holdSingletonJob, PROJECTION_BOOTSTRAP_JOB } from './polling-harness';

jest.setTimeout(120_000);

/**
 * The system settings' error email reaches the email-marketing service, which mails staff, as
 * `system-settings.saved` (docs/adr/0013): with every save, in its transaction, and once whenever the api
 * role starts, so a projection made after the last save fills without one.
 */
describe('announcements service: system-settings.saved', () => {
  let app: INestApplication;
  let requester: KafkaRequester;
  let probe: TopicProbe;
  let dataDir: string;
  let releaseBootstrap: (() => Promise<void>) | undefined;

  const start = () =>
    startAnnouncementsService({
      ...serviceTestEnv('announcements'),
      DATA_DIR: dataDir,
      POLL_INTERVAL_MS: '3600000',
      ROLES: 'api',
    });
  const isSaved = (m: ReceivedMessage) => m.topic === Topics.SystemSettingsSaved;
  /** The `system-settings.saved` the probe read after the first `after` of them that satisfies `match`. */
  const savedEvent = (after: number, match: (v: { errorEmail: string; savedAt: string }) => boolean) =>
    probe.waitFor(
      (m) =>
        isSaved(m) &&
        probe.received.filter(isSaved).indexOf(m) >= after &&
        match(m.value as { errorEmail: string; savedAt: string }),
      30_000,
    );
  const savedCount = () => probe.received.filter(isSaved).length;
  /** The settings row's error email and saved time, as the database holds them. */
  const settingsRow = async () =>
    (
      await app
        .get(DataSource)
        .query(`SELECT error_email, updated_at FROM announcements.system_settings WHERE id = 1`)
    )[0] as { error_email: string; updated_at: Date };
  const save = (current: SystemSettings, errorEmail: string) =>
    requester.request(Topics.AnnouncementsSaveSystemSettings, {
      actor: ADMIN,
      settings: { ...current, errorEmail },
    });

  beforeAll(async () => {
    await dropSchema('announcements');
    // No stocks service here: its projection's bootstrap request would hold up shutdown until it timed out.
    releaseBootstrap = await holdSingletonJob(PROJECTION_BOOTSTRAP_JOB);
    dataDir = mkdtempSync(join(tmpdir(), 'irp-system-settings-'));
    probe = await TopicProbe.listen([Topics.SystemSettingsSaved]);
    app = await start();
    requester = await createTestRequester(
      [Topics.AnnouncementsSystemSettings, Topics.AnnouncementsSaveSystemSettings],
      10_000,
    );
  });

  afterAll(async () => {
    await requester?.close();
    await probe?.close();
    await app?.close();
    await releaseBootstrap?.();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('publishes the settings when it starts: before any save, no error email saved at the epoch', async () => {
    const started = await savedEvent(0, () => true);
    expect(started.key).toBe(SYSTEM_SETTINGS_KEY);
    expect(started.value).toEqual({ errorEmail: '', savedAt: new Date(0).toISOString() });
  });

  it('publishes a save with the saved error email and time; a refused save publishes nothing', async () => {
    const current = (await requester.request(Topics.AnnouncementsSystemSettings, { actor: ADMIN })).settings;
    const before = savedCount();
    await save(current, ' staff@ir.example ');
    const row = await settingsRow();
    expect(row.error_email).toBe('staff@ir.example');
    const saved = await savedEvent(before, (v) => v.errorEmail === 'staff@ir.example');
    expect(saved.key).toBe(SYSTEM_SETTINGS_KEY);
    expect(saved.value).toEqual({ errorEmail: 'staff@ir.example', savedAt: row.updated_at.toISOString() });

    const outboxBefore = (await outboxEvents('announcements', Topics.SystemSettingsSaved)).length;
    await expectAppError(
      save(current, 'not an address'),
      'BAD_REQUEST',
      'Error email not an address is not an email address',
    );
    expect(await outboxEvents('announcements', Topics.SystemSettingsSaved)).toHaveLength(outboxBefore);

    // The next save is saved later, so a projection keeping the newest keeps it whatever order they arrive in.
    await save(current, 'desk@ir.example');
    const next = await savedEvent(before, (v) => v.errorEmail === 'desk@ir.example');
    const nextValue = next.value as { savedAt: string };
    expect(nextValue.savedAt).toBe((await settingsRow()).updated_at.toISOString());
    expect(Date.parse(nextValue.savedAt)).toBeGreaterThan(row.updated_at.getTime());
  });

  it('publishes the current settings again when the api role starts again', async () => {
    await app.close();
    const before = savedCount();
    app = await start();
    const restarted = await savedEvent(before, () => true);
    const row = await settingsRow();
    expect(restarted.key).toBe(SYSTEM_SETTINGS_KEY);
    expect(restarted.value).toEqual({ errorEmail: 'desk@ir.example', savedAt: row.updated_at.toISOString() });
  });
});
