import { randomBytes, randomUUID } from 'node:crypto';
import { type Dirent, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INestApplication } from '@nestjs/common';
import {
  AdminStockPageSchema,
  Announcement,
  AnnouncementChangeResponseSchema,
  AnnouncementListSchema,
  AnnouncementMessages,
  CSRF_COOKIE,
  CSRF_HEADER,
  DiskReportSchema,
  FileCleanupSchema,
  ReconcileSchema,
  SESSION_COOKIE,
  Stock,
  StockRole,
  SystemSettings,
  SystemSettingsSchema,
  UPLOAD_CHUNK_BYTES,
  WidgetAnnouncementListSchema,
  WidgetAnnouncementSchema,
} from '@irp/proto';
import {
  dropSchema,
  loadTestEnv,
  runServiceSeed,
  ServiceProcess,
  startServiceProcess,
} from '@irp/platform/testing';
import { Client } from 'pg';
import { PDFDocument } from 'pdf-lib';
import request from 'supertest';
import { createGateway } from '../src/main';
import { seedTestUsers, until } from './gateway-harness';

/**
 * Contract tests of the announcement routes (docs/api/announcements.md): the gateway in front of the real
 * users, stocks and announcements services, each its own process, on the real broker and database. Every
 * route: signed out 401, the wrong role 403 (a report-runner, a client without the role on the stock, a
 * client of another stock), bad input 400 with nothing changed, and its happy path and shape. Stocks are
 * made through the API with tickers unique to this run; per-stock roles go to test users of our own.
 */

// testTimeout of a jest project's config is not applied when the root config runs the projects.
jest.setTimeout(60_000);

const basic = (u: string, p: string) => `Basic ${Buffer.from(`${u}:${p}`).toString('base64')}`;
const RUN = Date.now().toString(36).slice(-6).toUpperCase();
const T = (prefix: string) => `${prefix}${RUN}`;
const PASSWORD = 'AnnouncementsTest!2026';
const STOCK_PAGE_TIMEOUT_MS = 1000;
/** The spec's date format (Sydney time): 22 Mar 2025 8:50 AM is 21:50 UTC the day before (AEDT, +11). */
const DATE = '22 Mar 2025 8:50 AM';
const DATE_UTC = '2025-03-21T21:50:00.000Z';

interface Session {
  cookie: string;
  csrf: string;
}

interface PdfFile {
  data: Buffer;
  name: string;
}

/** A real PDF (pdf-lib); `padding` random bytes ride along as an attachment to make it span chunks. */
async function makePdf(text: string, padding = 0): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.addPage([300, 200]).drawText(text, { x: 20, y: 100, size: 12 });
  if (padding) await doc.attach(randomBytes(padding), 'data.bin', { mimeType: 'application/octet-stream' });
  return Buffer.from(await doc.save());
}

describe('gateway announcement routes against the real users, stocks and announcements services', () => {
  let users: ServiceProcess;
  let stocks: ServiceProcess;
  let announcements: ServiceProcess | undefined;
  let gateway: INestApplication;
  let http: ReturnType<typeof request>;
  const dataDir = mkdtempSync(join(tmpdir(), 'irp-announcements-data-'));
  const sessions: Record<string, Session> = {};

  let A: Stock; // editor: EditAnnouncements; sender: SendMailchimp; viewer: ViewConfig only
  let B: Stock; // other: EditAnnouncements and SendMailchimp (the "client of another stock")
  let R: Stock; // resync
  let smallPdf: PdfFile;
  let base: Announcement; // on A, saved by the admin before the tests
  let onB: Announcement;

  async function signIn(username: string, password: string): Promise<Session> {
    const res = await http.get('/api/login').set('Authorization', basic(username, password));
    expect(res.status).toBe(200);
    const jar: Record<string, string> = {};
    for (const c of (res.headers['set-cookie'] as unknown as string[]) ?? []) {
      const [pair] = c.split(';');
      const i = pair.indexOf('=');
      jar[pair.slice(0, i)] = decodeURIComponent(pair.slice(i + 1));
    }
    return {
      cookie: `${SESSION_COOKIE}=${jar[SESSION_COOKIE]}; ${CSRF_COOKIE}=${jar[CSRF_COOKIE]}`,
      csrf: jar[CSRF_COOKIE],
    };
  }

  const get = (path: string, who?: string) => {
    const r = http.get(path);
    return who ? r.set('Cookie', sessions[who].cookie) : r;
  };
  const post = (path: string, body: object, who?: string) => {
    const r = http.post(path);
    return (who ? r.set('Cookie', sessions[who].cookie).set(CSRF_HEADER, sessions[who].csrf) : r).send(body);
  };
  /** POST /api/Announcement/save as the browser sends it: multipart text fields plus the PDF as `file`. */
  const saveForm = (combinedTicker: string, fields: Record<string, string>, who?: string, file?: PdfFile) => {
    let r = http.post(`/api/Announcement/save/${combinedTicker}`);
    if (who) r = r.set('Cookie', sessions[who].cookie).set(CSRF_HEADER, sessions[who].csrf);
    for (const [name, value] of Object.entries(fields)) r = r.field(name, value);
    if (file) r = r.attach('file', file.data, { filename: file.name, contentType: 'application/pdf' });
    return r;
  };
  /** GET returning the raw bytes of the answer, whatever its type. */
  const getBytes = (path: string) =>
    http
      .get(path)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });

  async function createStock(fields: Record<string, unknown>): Promise<Stock> {
    const res = await post('/api/admin/stocks', fields, 'admin');
    expect(res.body).toMatchObject({ success: true, errorMessage: null });
    return res.body.stock as Stock;
  }

  const newApiKey = async () => (await get('/api/admin/apiKey', 'admin')).body.apiKey as string;

  async function save(combinedTicker: string, fields: Record<string, string>, who = 'admin', file?: PdfFile) {
    const res = await saveForm(combinedTicker, fields, who, file);
    expect({ status: res.status, body: res.body }).toMatchObject({ status: 200 });
    return AnnouncementChangeResponseSchema.parse(res.body).announcement;
  }

  /** A stock's announcements and initial poll as an admin reads them: what a refused change must not touch. */
  const listOf = async (combinedTicker: string) => {
    const res = await get(`/api/Announcement/list/${combinedTicker}`, 'admin');
    expect(res.status).toBe(200);
    return AnnouncementListSchema.parse(res.body);
  };
  const find = async (combinedTicker: string, sendGuid: string) =>
    (await listOf(combinedTicker)).announcements.find((a) => a.sendGuid === sendGuid);
  /**
   * What an upload to a stock can leave behind, read where the service keeps it: the stock's announcement
   * rows, the staged chunks of every upload, and every file in the stock's folder of the service's data
   * folder (a PDF, or the temp file it is written through; the demo stocks' initial polls write elsewhere).
   */
  const leftovers = async ({ id: stockId, combinedTicker }: Stock) => {
    const folder = join(dataDir, combinedTicker.replace(/[^A-Za-z0-9]+/g, '-'));
    const pg = new Client({ connectionString: loadTestEnv().DATABASE_URL });
    await pg.connect();
    try {
      const [{ rows, parts }] = (
        await pg.query<{ rows: number; parts: number }>(
          `SELECT (SELECT count(*)::int FROM announcements.announcements WHERE stock_id = $1) AS rows,
                  (SELECT count(*)::int FROM announcements.upload_parts) AS parts`,
          [stockId],
        )
      ).rows;
      const files = (readdirSync(folder, { recursive: true, withFileTypes: true }) as Dirent[])
        .filter((d) => !d.isDirectory())
        .map((d) => join(d.parentPath ?? d.path, d.name))
        .sort();
      return { rows, parts, files };
    } finally {
      await pg.end();
    }
  };

  beforeAll(async () => {
    // Fresh stocks and announcements schemas: the stocks seed makes the demo stocks with their fixed ids,
    // and the announcements service starts from its defaults (mock source, no announcements).
    await Promise.all([dropSchema('stocks'), dropSchema('announcements')]);
    [users, stocks] = await Promise.all([startServiceProcess('users'), startServiceProcess('stocks')]);
    await Promise.all([runServiceSeed('users'), runServiceSeed('stocks')]);
    announcements = await startServiceProcess('announcements', {
      // No ASX URL: the mock source. Polling an hour apart, so no poll runs while the tests do.
      env: { DATA_DIR: dataDir, POLL_INTERVAL_MS: '3600000', ASX_BASE_URL: '', ASX2_BASE_URL: '' },
    });
    gateway = await createGateway({
      ...process.env,
      PORT: '0',
      KAFKA_REQUEST_TIMEOUT_MS: '8000',
      LOGIN_THROTTLE_LIMIT: '50',
      SESSION_CACHE_MS: '0',
      STOCK_PAGE_CONTRIBUTOR_TIMEOUT_MS: String(STOCK_PAGE_TIMEOUT_MS),
    });
    http = request(gateway.getHttpServer());

    sessions.admin = await signIn('admin', 'Admin!2026');
    sessions.reports = await signIn('reports', 'Reports!2026');

    A = await createStock({
      ticker: T('AN'),
      companyName: 'Alpha Announcements',
      apiKey: await newApiKey(),
      confirmationEmail: 'ir@alpha.example.com',
      sendPriceSensitiveAnnouncements: true,
      sendNonPriceSensitiveAnnouncements: true,
    });
    B = await createStock({ ticker: T('BN'), companyName: 'Beta Announcements', apiKey: await newApiKey() });
    R = await createStock({ ticker: T('RN'), companyName: 'Resync Resources' });
    await seedTestUsers(PASSWORD, [
      { username: 'ann-test-editor', stockRoles: { [A.id]: [StockRole.EditAnnouncements] } },
      { username: 'ann-test-sender', stockRoles: { [A.id]: [StockRole.SendMailchimp] } },
      { username: 'ann-test-viewer', stockRoles: { [A.id]: [StockRole.ViewConfig] } },
      {
        username: 'ann-test-other',
        stockRoles: { [B.id]: [StockRole.EditAnnouncements, StockRole.SendMailchimp] },
      },
    ]);
    for (const who of ['editor', 'sender', 'viewer', 'other'])
      sessions[who] = await signIn(`ann-test-${who}`, PASSWORD);

    // The announcements service learns of stocks from stock.upserted: wait until it knows ours.
    for (const stock of [A, B, R])
      await until(
        () => get(`/api/Announcement/list/${stock.combinedTicker}`, 'admin'),
        (res) => res.status === 200,
        `the announcements service knowing ${stock.combinedTicker}`,
      );

    smallPdf = { data: await makePdf('Half Year Results'), name: 'Half Year Results.pdf' };
    base = await save(A.combinedTicker, { headline: 'Base announcement', date: DATE }, 'admin', smallPdf);
    onB = await save(B.combinedTicker, { headline: 'Beta results', date: DATE }, 'admin', smallPdf);
  }, 180_000);

  afterAll(async () => {
    await gateway?.close();
    await Promise.all([announcements?.stop(), stocks?.stop(), users?.stop()]);
    // Leave no test stocks or announcements behind for a stack started on this database next.
    await Promise.all([dropSchema('stocks'), dropSchema('announcements')]);
    rmSync(dataDir, { recursive: true, force: true });
  });

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

    it('refuses a file over 20 MB with 413 without storing anything, and keeps serving', async () => {
      const before = await listOf(A.combinedTicker);
      const huge = {
        data: Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(20 * 1024 * 1024)]),
        name: 'huge.pdf',
      };
      const kept = await leftovers(A);
      const res = await saveForm(A.combinedTicker, { headline: 'Huge', date: DATE }, 'admin', huge);
      expect(res.status).toBe(413);
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
      await announcements?.stop();
      announcements = undefined;
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
