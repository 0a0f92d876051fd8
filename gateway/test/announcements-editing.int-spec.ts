import { randomUUID } from 'node:crypto';
import {
  AdminStockPageSchema,
  AnnouncementChangeResponseSchema,
  AnnouncementListSchema,
  AnnouncementMessages,
  UPLOAD_CHUNK_BYTES,
  WidgetAnnouncementListSchema,
  WidgetAnnouncementSchema,
} from '@irp/proto';
import request from 'supertest';
import {
  A,
  B,
  DATE,
  DATE_UTC,
  PdfFile,
  STOCK_PAGE_TIMEOUT_MS,
  base,
  find,
  get,
  getBytes,
  http,
  leftovers,
  listOf,
  makePdf,
  onB,
  post,
  save,
  saveForm,
  sessions,
  smallPdf,
  stopAnnouncements,
  useAnnouncementsGateway,
} from './announcements-routes.harness';

/**
 * Contract tests of the announcement routes a stock's editors and readers use (docs/api/announcements.md):
 * every route signed out 401, the wrong role 403 (a report-runner, a client without the role on the stock,
 * a client of another stock) with nothing changed; list, save with its PDF, delete, the public widget API,
 * the stock page composed with the announcements, the OpenAPI document, and the gateway with the service
 * down. Setup: announcements-routes.harness.ts.
 */

// testTimeout of a jest project's config is not applied when the root config runs the projects.
jest.setTimeout(60_000);

describe('gateway announcement routes: roles, list, save and PDF, delete, widget, stock page', () => {
  useAnnouncementsGateway();

  // -------------------------------------------------------------------------------------------------
  describe('every route: signed out 401, wrong role 403, nothing changed', () => {
    const systemSettingsBody = {
      announcementService: 'mock',
      errorEmail: 'hijack@example.com',
      hourlyAutoSendLimit: 1,
      dailyAutoSendLimit: 1,
      disablePollUntil: '',
      useNightmare: false,
    };
    /** What a refused change could have touched, read back as an admin. */
    const state = async () => ({
      a: await listOf(A.combinedTicker),
      settings: (await get('/api/admin/systemSettings', 'admin')).body as unknown,
      reconcile: (await get('/api/reconcile/last/', 'admin')).body as unknown,
    });
    const someId = randomUUID();
    const routes: Array<{ name: string; call: (who?: string) => request.Test; wrong: string[] }> = [
      {
        name: 'GET /api/Announcement/list/{combinedTicker}',
        call: (w) => get(`/api/Announcement/list/${A.combinedTicker}`, w),
        wrong: ['reports', 'viewer', 'other'],
      },
      {
        name: 'POST /api/Announcement/save/{combinedTicker}',
        call: (w) => saveForm(A.combinedTicker, { headline: 'Refused', date: DATE }, w, smallPdf),
        wrong: ['reports', 'viewer', 'sender', 'other'],
      },
      {
        name: 'POST /api/Announcement/delete/{combinedTicker}',
        call: (w) => post(`/api/Announcement/delete/${A.combinedTicker}`, { sendGuid: base.sendGuid }, w),
        wrong: ['reports', 'viewer', 'sender', 'other'],
      },
      {
        name: 'POST /api/Announcement/send/{combinedTicker}',
        call: (w) =>
          post(
            `/api/Announcement/send/${A.combinedTicker}?sendOverride=true`,
            { sendGuid: base.sendGuid },
            w,
          ),
        wrong: ['reports', 'viewer', 'editor', 'other'],
      },
      {
        name: 'POST /api/admin/sendConfirmationAnnouncementEmail/{combinedTicker}',
        call: (w) =>
          post(
            `/api/admin/sendConfirmationAnnouncementEmail/${A.combinedTicker}`,
            { sendGuid: base.sendGuid },
            w,
          ),
        wrong: ['reports', 'editor', 'sender'],
      },
      {
        name: 'POST /api/admin/resyncAnnouncements',
        call: (w) => post(`/api/admin/resyncAnnouncements?ticker=${A.combinedTicker}`, {}, w),
        wrong: ['reports', 'editor'],
      },
      {
        name: 'GET /api/admin/systemSettings',
        call: (w) => get('/api/admin/systemSettings', w),
        wrong: ['reports', 'editor'],
      },
      {
        name: 'POST /api/admin/systemSettings',
        call: (w) => post('/api/admin/systemSettings', systemSettingsBody, w),
        wrong: ['reports', 'editor'],
      },
      {
        name: 'GET /api/admin/fileCleanup',
        call: (w) => get('/api/admin/fileCleanup', w),
        wrong: ['reports', 'editor'],
      },
      {
        name: 'GET /api/admin/diskReport',
        call: (w) => get('/api/admin/diskReport?includeBillable=true', w),
        wrong: ['reports', 'editor'],
      },
      {
        name: 'POST /api/reconcile/run',
        call: (w) => post('/api/reconcile/run?numDays=1', {}, w),
        wrong: ['reports', 'editor'],
      },
      {
        name: 'GET /api/reconcile/get/{id}',
        call: (w) => get(`/api/reconcile/get/${someId}`, w),
        wrong: ['reports', 'editor'],
      },
      {
        name: 'POST /api/reconcile/apply/{id}',
        call: (w) => post(`/api/reconcile/apply/${someId}`, {}, w),
        wrong: ['reports', 'editor'],
      },
      {
        name: 'GET /api/reconcile/last/',
        call: (w) => get('/api/reconcile/last/', w),
        wrong: ['reports', 'editor'],
      },
      {
        name: 'POST /api/admin/sendEmail',
        call: (w) => post('/api/admin/sendEmail', { email: 'test@example.com' }, w),
        wrong: ['reports', 'editor'],
      },
    ];

    it('signed out is 401 on every route, and nothing changed', async () => {
      const before = await state();
      for (const route of routes) {
        const res = await route.call();
        expect({ route: route.name, status: res.status, body: res.body }).toEqual({
          route: route.name,
          status: 401,
          body: {
            statusCode: 401,
            error: 'Unauthorized',
            message: 'Not signed in',
            errorMessage: 'Not signed in',
          },
        });
      }
      expect(await state()).toEqual(before);
    });

    it('the wrong role is 403 on every route (report-runner, no role on the stock, another stock), and nothing changed', async () => {
      const before = await state();
      for (const route of routes)
        for (const who of route.wrong) {
          const res = await route.call(who);
          expect({ route: route.name, who, status: res.status }).toEqual({
            route: route.name,
            who,
            status: 403,
          });
          expect(res.body.error).toBe('Forbidden');
          expect(res.body.errorMessage).toMatch(
            /^(This needs the Admin role|You do not have the .* permission on )/,
          );
        }
      expect(await state()).toEqual(before);
    });

    it('names the missing role or permission', async () => {
      expect((await get('/api/admin/systemSettings', 'editor')).body.errorMessage).toBe(
        'This needs the Admin role',
      );
      expect((await get(`/api/Announcement/list/${A.combinedTicker}`, 'viewer')).body.errorMessage).toBe(
        `You do not have the EditAnnouncements or SendMailchimp permission on ${A.combinedTicker}`,
      );
      expect(
        (await post(`/api/Announcement/delete/${A.combinedTicker}`, { sendGuid: base.sendGuid }, 'other'))
          .body.errorMessage,
      ).toBe(`You do not have the EditAnnouncements permission on ${A.combinedTicker}`);
      expect(
        (await post(`/api/Announcement/send/${A.combinedTicker}`, { sendGuid: base.sendGuid }, 'editor')).body
          .errorMessage,
      ).toBe(`You do not have the SendMailchimp permission on ${A.combinedTicker}`);
    });

    it('refuses a state change without the CSRF header', async () => {
      const res = await http
        .post(`/api/Announcement/delete/${A.combinedTicker}`)
        .set('Cookie', sessions.admin.cookie)
        .send({ sendGuid: base.sendGuid });
      expect(res.status).toBe(403);
      expect(res.body.errorMessage).toMatch(/CSRF/);
      expect((await find(A.combinedTicker, base.sendGuid))?.deletedOn).toBeNull();
    });

    it('lets the PDF and the widget routes be called signed out (public)', async () => {
      expect((await getBytes(base.pdfUrl!)).status).toBe(200);
      expect((await http.get(`/api/widget/announcements?apiKey=${A.apiKey}`)).status).toBe(200);
    });
  });

  // -------------------------------------------------------------------------------------------------
  describe('GET /api/Announcement/list/{combinedTicker}', () => {
    it('gives the announcements newest first with the initial poll, to admins, editors and senders', async () => {
      for (const who of ['admin', 'editor', 'sender']) {
        const res = await get(`/api/Announcement/list/${A.combinedTicker}`, who);
        expect({ who, status: res.status }).toEqual({ who, status: 200 });
        const list = AnnouncementListSchema.parse(res.body);
        expect(list.announcements.map((a) => a.sendGuid)).toContain(base.sendGuid);
        expect(list.announcements.map((a) => a.stockId)).toEqual(list.announcements.map(() => A.id));
        const dates = list.announcements.map((a) => a.date);
        expect(dates).toEqual([...dates].sort().reverse());
      }
    });

    it('answers 404 for an unknown stock and 400 for a name too long', async () => {
      const missing = await get('/api/Announcement/list/NOSUCH9:ASX', 'admin');
      expect(missing.status).toBe(404);
      expect(missing.body.errorMessage).toBe('Stock NOSUCH9:ASX not found');
      const long = await get(`/api/Announcement/list/${'A'.repeat(41)}`, 'admin');
      expect(long.status).toBe(400);
      expect(long.body.errorMessage).toBe('combinedTicker must be at most 40 characters');
    });
  });

  // -------------------------------------------------------------------------------------------------
  describe('POST /api/Announcement/save/{combinedTicker} and GET /api/Announcement/pdf/{sendGuid}', () => {
    it('adds an announcement with its PDF (a client editor) and serves the same bytes back', async () => {
      const pdf = { data: await makePdf('Quarterly Activities Report'), name: 'Quarterly.pdf' };
      const res = await saveForm(
        A.combinedTicker,
        {
          headline: ' Quarterly Activities Report ',
          date: DATE,
          priceSensitive: 'true',
          videoUrl: 'https://video.example.com/q3',
          videoDescription: 'Webcast',
          thumbnailPageNum: '2',
        },
        'editor',
        pdf,
      );
      expect(res.status).toBe(200);
      const { announcement } = AnnouncementChangeResponseSchema.parse(res.body);
      expect(res.body).toEqual({ success: true, announcement: expect.any(Object), errorMessage: null });
      expect(announcement).toMatchObject({
        stockId: A.id,
        headline: 'Quarterly Activities Report',
        headlineOriginal: null,
        date: DATE_UTC,
        priceSensitive: true,
        videoUrl: 'https://video.example.com/q3',
        videoDescription: 'Webcast',
        thumbnailPageNum: 2,
        pdfUrl: `/api/Announcement/pdf/${announcement.sendGuid}`,
        fileProblem: null,
        sent: false,
        sendRequestedAt: null,
        hits: 0,
        alertLatencyMs: null,
        numComments: 0,
        deletedOn: null,
        origin: 'manual',
      });
      expect((await find(A.combinedTicker, announcement.sendGuid))?.headline).toBe(
        'Quarterly Activities Report',
      );

      const file = await getBytes(announcement.pdfUrl!);
      expect(file.status).toBe(200);
      expect(file.body).toEqual(pdf.data);
      expect(file.headers['content-type']).toBe('application/pdf');
      expect(file.headers['content-length']).toBe(String(pdf.data.length));
      expect(file.headers['content-disposition']).toMatch(/^inline; filename="[^"]+\.pdf"/);
      expect(file.headers['cache-control']).toBe('public, max-age=300');
    });

    it('carries a PDF bigger than one Kafka chunk both ways, byte for byte', async () => {
      const big = {
        data: await makePdf('Annual Report', UPLOAD_CHUNK_BYTES * 2 + 12345),
        name: 'Annual.pdf',
      };
      expect(big.data.length).toBeGreaterThan(UPLOAD_CHUNK_BYTES * 2);
      const announcement = await save(
        A.combinedTicker,
        { headline: 'Annual Report', date: DATE },
        'admin',
        big,
      );
      const file = await getBytes(announcement.pdfUrl!);
      expect(file.status).toBe(200);
      expect(file.headers['content-length']).toBe(String(big.data.length));
      expect(Buffer.compare(file.body as Buffer, big.data)).toBe(0);
    });

    it('edits by sendGuid without a new file, keeping the PDF and the original headline', async () => {
      const edited = await save(
        A.combinedTicker,
        {
          sendGuid: base.sendGuid,
          headline: 'Base announcement (amended)',
          date: DATE,
          priceSensitive: 'false',
        },
        'editor',
      );
      expect(edited).toMatchObject({
        sendGuid: base.sendGuid,
        headline: 'Base announcement (amended)',
        headlineOriginal: 'Base announcement',
        pdfUrl: base.pdfUrl,
      });
      expect((await getBytes(base.pdfUrl!)).body).toEqual(smallPdf.data);
    });

    it("edits by the spec's existing headline and date", async () => {
      const added = await save(
        A.combinedTicker,
        { headline: 'Appendix 3Y', date: '1 Apr 2025 9:00 AM' },
        'admin',
        smallPdf,
      );
      const edited = await save(
        A.combinedTicker,
        {
          existingAnnouncementHeadline: 'Appendix 3Y',
          existingAnnouncementDate: '1 Apr 2025 9:00 AM',
          headline: 'Appendix 3Y - Change of Director Interest',
          date: '1 Apr 2025 9:00 AM',
        },
        'admin',
      );
      expect(edited).toMatchObject({ sendGuid: added.sendGuid, headlineOriginal: 'Appendix 3Y' });
    });

    it("refuses bad input with 400 and the service's or the spec's message, and stores nothing", async () => {
      const before = await listOf(A.combinedTicker);
      const cases: Array<[Record<string, string>, PdfFile | undefined, string]> = [
        [{ date: DATE }, smallPdf, AnnouncementMessages.headlineRequired],
        [{ headline: 'x', date: 'yesterday' }, smallPdf, AnnouncementMessages.unparsableDate('yesterday')],
        [{ headline: 'x', date: DATE }, undefined, AnnouncementMessages.fileRequired],
        [
          { headline: 'x', date: DATE },
          { data: Buffer.from('hello, not a pdf'), name: 'hello.pdf' },
          'The file is not a PDF',
        ],
        [
          { headline: 'x', date: DATE, thumbnailPageNum: 'zero' },
          smallPdf,
          'thumbnailPageNum: must be a page number from 1',
        ],
        [{ headline: 'x', date: DATE, sendGuid: 'nope' }, undefined, 'sendGuid: must be an announcement id'],
      ];
      const kept = await leftovers(A);
      expect(kept.parts).toBe(0);
      for (const [fields, file, message] of cases) {
        const res = await saveForm(A.combinedTicker, fields, 'admin', file);
        // No row, no file, no staged chunk: each refusal, the file's too, leaves what was there before.
        expect({
          fields,
          status: res.status,
          errorMessage: res.body.errorMessage,
          left: await leftovers(A),
        }).toEqual({ fields, status: 400, errorMessage: message, left: kept });
      }
      expect(await listOf(A.combinedTicker)).toEqual(before);
    });

    it('answers 404 for an edit of an announcement that does not exist', async () => {
      const unknown = randomUUID();
      const res = await saveForm(A.combinedTicker, { sendGuid: unknown, headline: 'x', date: DATE }, 'admin');
      expect(res.status).toBe(404);
      expect(res.body.errorMessage).toBe(`Announcement ${unknown} not found`);
    });

    it('refuses a body that is not multipart with 415', async () => {
      const res = await post(
        `/api/Announcement/save/${A.combinedTicker}`,
        { headline: 'JSON', date: DATE },
        'admin',
      );
      expect(res.status).toBe(415);
      expect(res.body.errorMessage).toBe('This route takes a multipart/form-data body');
    });

    it('refuses a file over 20 MB with 400 without storing anything, and keeps serving', async () => {
      const before = await listOf(A.combinedTicker);
      const huge = {
        data: Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(20 * 1024 * 1024)]),
        name: 'huge.pdf',
      };
      const kept = await leftovers(A);
      const res = await saveForm(A.combinedTicker, { headline: 'Huge', date: DATE }, 'admin', huge);
      expect(res.status).toBe(400);
      expect(res.body.errorMessage).toBe('The file is larger than 20 MB');
      expect(await leftovers(A)).toEqual(kept);
      expect(await listOf(A.combinedTicker)).toEqual(before);
    });

    it('answers 404 for an unknown PDF and 400 for a guid that is not one', async () => {
      const unknown = randomUUID();
      const missing = await http.get(`/api/Announcement/pdf/${unknown}`);
      expect(missing.status).toBe(404);
      expect(missing.body.errorMessage).toBe(`Announcement ${unknown} not found`);
      // An error is never cached as if it were the file.
      expect(missing.headers['cache-control']).toBeUndefined();
      const bad = await http.get('/api/Announcement/pdf/not-a-guid');
      expect(bad.status).toBe(400);
      expect(bad.body.errorMessage).toBe('must be an announcement id');
    });
  });

  // -------------------------------------------------------------------------------------------------
  describe('POST /api/Announcement/delete/{combinedTicker}', () => {
    it('marks it deleted (kept in the list, struck through), once', async () => {
      const doomed = await save(
        A.combinedTicker,
        { headline: 'To be deleted', date: DATE },
        'admin',
        smallPdf,
      );
      const res = await post(
        `/api/Announcement/delete/${A.combinedTicker}`,
        { sendGuid: doomed.sendGuid },
        'editor',
      );
      expect(res.status).toBe(200);
      const { announcement } = AnnouncementChangeResponseSchema.parse(res.body);
      expect(announcement.sendGuid).toBe(doomed.sendGuid);
      expect(announcement.deletedOn).not.toBeNull();
      expect((await find(A.combinedTicker, doomed.sendGuid))?.deletedOn).toBe(announcement.deletedOn);

      const again = await post(
        `/api/Announcement/delete/${A.combinedTicker}`,
        { sendGuid: doomed.sendGuid },
        'admin',
      );
      expect(again.status).toBe(400);
      expect(again.body.errorMessage).toBe('The announcement is already deleted');
      const send = await post(
        `/api/Announcement/send/${A.combinedTicker}`,
        { sendGuid: doomed.sendGuid },
        'admin',
      );
      expect(send.status).toBe(400);
      expect(send.body.errorMessage).toBe('A deleted announcement cannot be sent');
      const widget = await http.get(`/api/widget/announcements?apiKey=${A.apiKey}`);
      expect(widget.body.announcements.map((a: { sendGuid: string }) => a.sendGuid)).not.toContain(
        doomed.sendGuid,
      );
    });

    it("refuses a body without a sendGuid (400) and an unknown or other stock's one (404), changing nothing", async () => {
      const before = await listOf(A.combinedTicker);
      const none = await post(`/api/Announcement/delete/${A.combinedTicker}`, {}, 'admin');
      expect(none.status).toBe(400);
      expect(none.body.errorMessage).toBe('sendGuid: Required');
      const bad = await post(`/api/Announcement/delete/${A.combinedTicker}`, { sendGuid: 'x' }, 'admin');
      expect(bad.status).toBe(400);
      expect(bad.body.errorMessage).toBe('sendGuid: must be an announcement id');
      const otherStocks = await post(
        `/api/Announcement/delete/${A.combinedTicker}`,
        { sendGuid: onB.sendGuid },
        'admin',
      );
      expect(otherStocks.status).toBe(404);
      expect(otherStocks.body.errorMessage).toBe(`Announcement ${onB.sendGuid} not found`);
      expect(await listOf(A.combinedTicker)).toEqual(before);
      expect((await find(B.combinedTicker, onB.sendGuid))?.deletedOn).toBeNull();
    });
  });

  // -------------------------------------------------------------------------------------------------
  describe('the widget API: /api/widget/announcements and /api/widget/announcement (public)', () => {
    it("lists the key's stock's announcements (not deleted, newest first) with CORS *", async () => {
      const res = await http
        .get(`/api/widget/announcements?apiKey=${A.apiKey}`)
        .set('Origin', 'https://alpha.example.com');
      expect(res.status).toBe(200);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      const { announcements: list } = WidgetAnnouncementListSchema.parse(res.body);
      const guids = list.map((a) => a.sendGuid);
      expect(guids).toContain(base.sendGuid);
      expect(guids).not.toContain(onB.sendGuid);
      // Only what a website may see: no ids, paths or send state.
      for (const a of res.body.announcements) expect(WidgetAnnouncementSchema.strict().parse(a)).toEqual(a);
      const dates = list.map((a) => a.date);
      expect(dates).toEqual([...dates].sort().reverse());
    });

    it('opens an announcement and counts each view in hits', async () => {
      const open = () =>
        http
          .get(`/api/widget/announcement?apiKey=${A.apiKey}&sendGuid=${base.sendGuid}`)
          .set('X-Api-Key', A.apiKey!);
      const first = await open();
      expect(first.status).toBe(200);
      const hits = first.body.announcement.hits as number;
      expect(WidgetAnnouncementSchema.parse(first.body.announcement)).toMatchObject({
        sendGuid: base.sendGuid,
        pdfUrl: base.pdfUrl,
      });
      expect((await open()).body.announcement.hits).toBe(hits + 1);
      const list = await http.get(`/api/widget/announcements?apiKey=${A.apiKey}`);
      expect(
        list.body.announcements.find((a: { sendGuid: string }) => a.sendGuid === base.sendGuid).hits,
      ).toBe(hits + 1);
      expect((await find(A.combinedTicker, base.sendGuid))?.hits).toBe(hits + 1);
    });

    it("answers 404 for another stock's announcement, 400 without a sendGuid, 401 without a key", async () => {
      const other = await http.get(`/api/widget/announcement?apiKey=${A.apiKey}&sendGuid=${onB.sendGuid}`);
      expect(other.status).toBe(404);
      expect((await find(B.combinedTicker, onB.sendGuid))?.hits).toBe(0);
      const none = await http.get(`/api/widget/announcement?apiKey=${A.apiKey}`);
      expect(none.status).toBe(400);
      expect(none.body.errorMessage).toBe('sendGuid: Required');
      const noKey = await http.get('/api/widget/announcements');
      expect(noKey.status).toBe(401);
      expect(noKey.headers['access-control-allow-origin']).toBe('*');
    });
  });

  // -------------------------------------------------------------------------------------------------
  describe('GET /api/stock/{combinedTicker} composed with the announcements', () => {
    it('gives an admin the stock with its announcements and initial poll', async () => {
      const res = await get(`/api/stock/${A.combinedTicker}`, 'admin');
      expect(res.status).toBe(200);
      const page = AdminStockPageSchema.parse(res.body);
      expect(page).toEqual(res.body);
      expect(page).toMatchObject({ id: A.id, unavailable: [] });
      expect(page.announcements).toEqual((await listOf(A.combinedTicker)).announcements);
      expect(page.announcements?.map((a) => a.sendGuid)).toContain(base.sendGuid);
    });

    it('gives a report-runner the summary only, without announcements', async () => {
      const res = await get(`/api/stock/${A.combinedTicker}`, 'reports');
      expect(res.status).toBe(200);
      expect(res.body.announcements).toBeUndefined();
      expect(res.body.unavailable).toBeUndefined();
      expect(res.body.completedInitialPoll).toEqual(expect.any(Boolean));
    });
  });

  it('documents every announcement route in OpenAPI, the upload as multipart and the PDF as a file', async () => {
    const json = await http.get('/api/docs-json');
    expect(json.status).toBe(200);
    const paths = json.body.paths as Record<string, Record<string, Record<string, unknown>>>;
    expect(Object.keys(paths)).toEqual(
      expect.arrayContaining([
        '/api/Announcement/list/{combinedTicker}',
        '/api/Announcement/save/{combinedTicker}',
        '/api/Announcement/delete/{combinedTicker}',
        '/api/Announcement/send/{combinedTicker}',
        '/api/Announcement/pdf/{sendGuid}',
        '/api/admin/sendConfirmationAnnouncementEmail/{combinedTicker}',
        '/api/admin/resyncAnnouncements',
        '/api/admin/systemSettings',
        '/api/admin/fileCleanup',
        '/api/admin/diskReport',
        '/api/reconcile/run',
        '/api/reconcile/get/{id}',
        '/api/reconcile/apply/{id}',
        '/api/reconcile/last',
        '/api/admin/sendEmail',
        '/api/widget/announcements',
        '/api/widget/announcement',
      ]),
    );
    const upload = paths['/api/Announcement/save/{combinedTicker}'].post.requestBody as {
      content: Record<string, { schema: { properties: Record<string, unknown> } }>;
    };
    expect(upload.content['multipart/form-data'].schema.properties.file).toMatchObject({
      type: 'string',
      format: 'binary',
    });
    const pdf = paths['/api/Announcement/pdf/{sendGuid}'].get.responses as Record<
      string,
      { content: object }
    >;
    expect(Object.keys(pdf['200'].content)).toEqual(['application/pdf']);
  });

  // Last: stops the announcements service.
  describe('when the announcements service is down', () => {
    beforeAll(async () => {
      await stopAnnouncements();
    });

    it('still answers the stock page, without announcements, naming the service in unavailable', async () => {
      const started = Date.now();
      const res = await get(`/api/stock/${A.combinedTicker}`, 'admin');
      expect(res.status).toBe(200);
      expect(Date.now() - started).toBeLessThan(STOCK_PAGE_TIMEOUT_MS + 2000);
      expect(AdminStockPageSchema.parse(res.body)).toMatchObject({
        id: A.id,
        announcements: null,
        initialPoll: null,
        unavailable: ['announcements'],
      });
    });

    it('answers the announcement routes 503 with a clear message', async () => {
      const res = await get(`/api/Announcement/list/${A.combinedTicker}`, 'admin');
      expect(res.status).toBe(503);
      expect(res.body.errorMessage).toMatch(/^The announcements service is not available right now/);
    });
  });
});
