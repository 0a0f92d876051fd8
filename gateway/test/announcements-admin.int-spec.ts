import { randomUUID } from 'node:crypto';
import {
  AnnouncementChangeResponseSchema,
  AnnouncementMessages,
  DiskReportSchema,
  FileCleanupSchema,
  ReconcileSchema,
  SystemSettings,
  SystemSettingsSchema,
  UPLOAD_CHUNK_BYTES,
} from '@irp/proto';
import { until } from './gateway-harness';
import {
  A,
  B,
  DATE,
  DATE_UTC,
  R,
  base,
  get,
  onB,
  post,
  save,
  smallPdf,
  useAnnouncementsGateway,
} from './announcements-routes.harness';

/**
 * Contract tests of the announcement routes that send and administer (docs/api/announcements.md): send
 * with its override, the confirmation email, resync, system settings, file cleanup and the disk report,
 * and reconcile; happy paths, shapes, bad input 400. Setup: announcements-routes.harness.ts.
 */

// testTimeout of a jest project's config is not applied when the root config runs the projects.
jest.setTimeout(60_000);

describe('gateway announcement routes: sending, resync, system settings, files, reconcile', () => {
  useAnnouncementsGateway();

  // -------------------------------------------------------------------------------------------------
  describe('POST /api/Announcement/send/{combinedTicker}?sendOverride', () => {
    it('requests a send once; a second needs sendOverride (409 without it)', async () => {
      const fresh = await save(A.combinedTicker, { headline: 'Trading Halt', date: DATE }, 'admin', smallPdf);
      const first = await post(
        `/api/Announcement/send/${A.combinedTicker}`,
        { sendGuid: fresh.sendGuid },
        'sender',
      );
      expect(first.status).toBe(200);
      const sent = AnnouncementChangeResponseSchema.parse(first.body).announcement;
      expect(sent.sendRequestedAt).not.toBeNull();

      const again = await post(
        `/api/Announcement/send/${A.combinedTicker}`,
        { sendGuid: fresh.sendGuid },
        'sender',
      );
      expect(again.status).toBe(409);
      expect(again.body).toEqual({
        statusCode: 409,
        error: 'Conflict',
        message: AnnouncementMessages.alreadySent,
        errorMessage: AnnouncementMessages.alreadySent,
      });
      const notOverride = await post(
        `/api/Announcement/send/${A.combinedTicker}?sendOverride=false`,
        { sendGuid: fresh.sendGuid },
        'admin',
      );
      expect(notOverride.status).toBe(409);
      // An ASP.NET-style client's False is no override either.
      const notOverrideCapital = await post(
        `/api/Announcement/send/${A.combinedTicker}?sendOverride=False`,
        { sendGuid: fresh.sendGuid },
        'admin',
      );
      expect(notOverrideCapital.status).toBe(409);

      // As the web app sends it: the bare flag.
      const override = await post(
        `/api/Announcement/send/${A.combinedTicker}?sendOverride`,
        { sendGuid: fresh.sendGuid, headline: 'ignored: the server reads only the sendGuid' },
        'sender',
      );
      expect(override.status).toBe(200);
      expect(override.body.announcement.headline).toBe('Trading Halt');
      expect(Date.parse(override.body.announcement.sendRequestedAt)).toBeGreaterThanOrEqual(
        Date.parse(sent.sendRequestedAt!),
      );
    });

    it('refuses a bad body (400) and an unknown announcement (404)', async () => {
      const bad = await post(`/api/Announcement/send/${A.combinedTicker}`, { sendGuid: 42 }, 'admin');
      expect(bad.status).toBe(400);
      expect(bad.body.errorMessage).toBe('sendGuid: Expected string, received number');
      const unknown = randomUUID();
      const missing = await post(
        `/api/Announcement/send/${A.combinedTicker}`,
        { sendGuid: unknown },
        'admin',
      );
      expect(missing.status).toBe(404);
      expect(missing.body.errorMessage).toBe(`Announcement ${unknown} not found`);
    });
  });

  // -------------------------------------------------------------------------------------------------
  describe('POST /api/admin/sendConfirmationAnnouncementEmail/{combinedTicker}', () => {
    it("requests the confirmation email to the stock's confirmation emails", async () => {
      const res = await post(
        `/api/admin/sendConfirmationAnnouncementEmail/${A.combinedTicker}`,
        { sendGuid: base.sendGuid },
        'admin',
      );
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, recipients: ['ir@alpha.example.com'], errorMessage: null });
    });

    it('refuses a stock without confirmation emails (400), a bad body (400) and an unknown announcement (404)', async () => {
      const none = await post(
        `/api/admin/sendConfirmationAnnouncementEmail/${B.combinedTicker}`,
        { sendGuid: onB.sendGuid },
        'admin',
      );
      expect(none.status).toBe(400);
      expect(none.body.errorMessage).toBe(`No confirmation emails are set for ${B.ticker} (Config tab)`);
      const bad = await post(`/api/admin/sendConfirmationAnnouncementEmail/${A.combinedTicker}`, {}, 'admin');
      expect(bad.status).toBe(400);
      expect(bad.body.errorMessage).toBe('sendGuid: Required');
      const unknown = randomUUID();
      const missing = await post(
        `/api/admin/sendConfirmationAnnouncementEmail/${A.combinedTicker}`,
        { sendGuid: unknown },
        'admin',
      );
      expect(missing.status).toBe(404);
    });
  });

  // -------------------------------------------------------------------------------------------------
  describe('POST /api/admin/resyncAnnouncements?ticker', () => {
    it("starts the stock's initial poll again; the stock page shows its progress", async () => {
      const res = await post(`/api/admin/resyncAnnouncements?ticker=${R.combinedTicker}`, {}, 'admin');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, initialPoll: expect.objectContaining({ stockId: R.id }) });
      expect(['running', 'completed']).toContain(res.body.initialPoll.status);
      const page = await get(`/api/stock/${R.combinedTicker}`, 'admin');
      expect(page.status).toBe(200);
      expect(page.body.initialPoll).toMatchObject({ stockId: R.id });
      expect(page.body.unavailable).toEqual([]);
    });

    it('refuses a missing ticker (400) and an unknown stock (404)', async () => {
      const none = await post('/api/admin/resyncAnnouncements', {}, 'admin');
      expect(none.status).toBe(400);
      expect(none.body.errorMessage).toBe('ticker: Required');
      const unknown = await post('/api/admin/resyncAnnouncements?ticker=NOSUCH9:ASX', {}, 'admin');
      expect(unknown.status).toBe(404);
      expect(unknown.body.errorMessage).toBe('Stock NOSUCH9:ASX not found');
    });
  });

  // -------------------------------------------------------------------------------------------------
  describe('GET and POST /api/admin/systemSettings', () => {
    let original: SystemSettings;

    beforeAll(async () => {
      original = SystemSettingsSchema.parse((await get('/api/admin/systemSettings', 'admin')).body);
    });
    afterAll(async () => {
      await post(
        '/api/admin/systemSettings',
        { ...original, disablePollUntil: original.disablePollUntil ?? '' },
        'admin',
      );
    });

    it('reads the settings; a fresh install without an ASX URL uses the mock source', async () => {
      const res = await get('/api/admin/systemSettings', 'admin');
      expect(res.status).toBe(200);
      expect(SystemSettingsSchema.strict().parse(res.body)).toEqual(res.body);
      expect(res.body.announcementService).toBe('mock');
    });

    it('saves every field and answers { success, settings, errorMessage }', async () => {
      const res = await post(
        '/api/admin/systemSettings',
        {
          announcementService: 'mock',
          errorEmail: 'ops@example.com',
          hourlyAutoSendLimit: '7',
          dailyAutoSendLimit: 25,
          disablePollUntil: DATE,
          useNightmare: false,
        },
        'admin',
      );
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        success: true,
        settings: {
          announcementService: 'mock',
          errorEmail: 'ops@example.com',
          hourlyAutoSendLimit: 7,
          dailyAutoSendLimit: 25,
          disablePollUntil: DATE_UTC,
          useNightmare: false,
        },
        errorMessage: null,
      });
      expect((await get('/api/admin/systemSettings', 'admin')).body).toEqual(res.body.settings);
    });

    it('refuses bad settings with 400 naming the problem, changing nothing', async () => {
      const before = (await get('/api/admin/systemSettings', 'admin')).body;
      const valid = { ...before, disablePollUntil: '' };
      const cases: Array<[object, string | RegExp]> = [
        [
          { ...valid, announcementService: 'nope' },
          'announcementService: must be one of asx, asx2, westpac, iress, mock',
        ],
        [{ ...valid, hourlyAutoSendLimit: -1 }, 'hourlyAutoSendLimit: must be 0 or more'],
        [{ ...valid, dailyAutoSendLimit: 'many' }, 'dailyAutoSendLimit: must be a number'],
        [{ ...valid, useNightmare: 'yes' }, 'useNightmare: must be true or false'],
        [{ ...valid, errorEmail: 'not-an-email' }, 'Error email not-an-email is not an email address'],
        [{ ...valid, disablePollUntil: 'someday' }, 'Unable to parse date someday'],
        // No ASX feed URL is configured for this service: the source cannot work, and the service says why.
        [{ ...valid, announcementService: 'asx' }, /ASX/],
      ];
      for (const [body, message] of cases) {
        const res = await post('/api/admin/systemSettings', body, 'admin');
        expect({ body, status: res.status }).toEqual({ body, status: 400 });
        expect(res.body.errorMessage).toEqual(
          typeof message === 'string' ? message : expect.stringMatching(message),
        );
      }
      expect((await get('/api/admin/systemSettings', 'admin')).body).toEqual(before);
    });
  });

  // -------------------------------------------------------------------------------------------------
  describe('GET /api/admin/fileCleanup and /api/admin/diskReport', () => {
    it('reports files: none of ours is missing on disk', async () => {
      const res = await get('/api/admin/fileCleanup', 'admin');
      expect(res.status).toBe(200);
      const report = FileCleanupSchema.strict().parse(res.body);
      expect(report.missingOnDisk.map((m) => m.sendGuid)).not.toContain(base.sendGuid);
    });

    it("reports each stock's disk space, ours included when billable stocks are asked for", async () => {
      const res = await get('/api/admin/diskReport?includeBillable=true', 'admin');
      expect(res.status).toBe(200);
      const items = DiskReportSchema.parse(res.body);
      expect(Array.isArray(res.body)).toBe(true);
      expect(items.find((i) => i.ticker === A.ticker)).toMatchObject({ apiKey: A.apiKey });
      expect(items.find((i) => i.ticker === A.ticker)?.diskSpace).toBeGreaterThan(UPLOAD_CHUNK_BYTES * 2);
      // As an ASP.NET-style client writes it, and as the bare flag.
      for (const flag of ['includeBillable=True', 'includeBillable']) {
        const asked = DiskReportSchema.parse((await get(`/api/admin/diskReport?${flag}`, 'admin')).body);
        expect({ flag, tickers: asked.map((i) => i.ticker) }).toEqual({
          flag,
          tickers: expect.arrayContaining([A.ticker]),
        });
      }
      // Without it, only the stocks that do not pay (A has an API key; R has none).
      const unpaid = DiskReportSchema.parse((await get('/api/admin/diskReport', 'admin')).body);
      expect(unpaid.map((i) => i.ticker)).toEqual(expect.arrayContaining([R.ticker]));
      expect(unpaid.map((i) => i.ticker)).not.toContain(A.ticker);
    });
  });

  // -------------------------------------------------------------------------------------------------
  describe('/api/reconcile', () => {
    it('answers null for the last run before any ran', async () => {
      const res = await get('/api/reconcile/last/', 'admin');
      expect(res.status).toBe(200);
      expect(res.text).toBe('null');
    });

    it('runs, reports progress by id, applies and shows the last run', async () => {
      const run = await post('/api/reconcile/run?numDays=1', {}, 'admin');
      expect(run.status).toBe(200);
      const started = ReconcileSchema.parse(run.body);
      expect(started.numDays).toBe(1);
      const done = await until(
        async () => ReconcileSchema.parse((await get(`/api/reconcile/get/${started.id}`, 'admin')).body),
        (r) => r.status !== 'running',
        'the reconcile run finishing',
        45_000,
      );
      expect(done).toMatchObject({ id: started.id, status: 'completed', error: null });
      const last = await get('/api/reconcile/last/', 'admin');
      expect(last.body.id).toBe(started.id);

      const applied = await post(`/api/reconcile/apply/${started.id}`, {}, 'admin');
      expect(applied.status).toBe(200);
      expect(ReconcileSchema.parse(applied.body)).toMatchObject({ id: started.id, status: 'applied' });
      expect(applied.body.applied).toEqual(expect.any(Number));
      const again = await post(`/api/reconcile/apply/${started.id}`, {}, 'admin');
      expect(again.status).toBe(400);
      expect(again.body.errorMessage).toBe('This reconcile has already been applied');
    });

    it('refuses numDays outside 1..90 and ids that are not ids (400), and unknown ids (404)', async () => {
      const before = (await get('/api/reconcile/last/', 'admin')).body;
      for (const [query, message] of [
        ['numDays=0', 'numDays: must be from 1 to 90 days'],
        ['numDays=91', 'numDays: must be from 1 to 90 days'],
        ['numDays=many', 'numDays: must be a number of days'],
      ]) {
        const res = await post(`/api/reconcile/run?${query}`, {}, 'admin');
        expect({ query, status: res.status, errorMessage: res.body.errorMessage }).toEqual({
          query,
          status: 400,
          errorMessage: message,
        });
      }
      expect((await get('/api/reconcile/last/', 'admin')).body).toEqual(before);
      const bad = await get('/api/reconcile/get/nope', 'admin');
      expect(bad.status).toBe(400);
      expect(bad.body.errorMessage).toBe('must be a reconcile id');
      expect((await get(`/api/reconcile/get/${randomUUID()}`, 'admin')).status).toBe(404);
      expect((await post(`/api/reconcile/apply/${randomUUID()}`, {}, 'admin')).status).toBe(404);
    });
  });
});
