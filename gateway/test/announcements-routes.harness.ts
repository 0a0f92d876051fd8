import { randomBytes } from 'node:crypto';
import { type Dirent, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INestApplication } from '@nestjs/common';
import {
  Announcement,
  AnnouncementChangeResponseSchema,
  AnnouncementListSchema,
  CSRF_COOKIE,
  CSRF_HEADER,
  SESSION_COOKIE,
  Stock,
  StockRole,
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
 * What the announcement routes' contract tests share (docs/api/announcements.md): the gateway in front of
 * the real users, stocks and announcements services, each its own process, on the real broker and
 * database. Stocks are made through the API with tickers unique to this run; per-stock roles go to test
 * users of our own. A spec file calls `useAnnouncementsGateway()` inside its describe; the bindings below
 * are set by its beforeAll.
 */

const basic = (u: string, p: string) => `Basic ${Buffer.from(`${u}:${p}`).toString('base64')}`;
export const RUN = Date.now().toString(36).slice(-6).toUpperCase();
export const T = (prefix: string) => `${prefix}${RUN}`;
export const PASSWORD = 'AnnouncementsTest!2026';
export const STOCK_PAGE_TIMEOUT_MS = 1000;
/** The spec's date format (Sydney time): 22 Mar 2025 8:50 AM is 21:50 UTC the day before (AEDT, +11). */
export const DATE = '22 Mar 2025 8:50 AM';
export const DATE_UTC = '2025-03-21T21:50:00.000Z';

export interface Session {
  cookie: string;
  csrf: string;
}

export interface PdfFile {
  data: Buffer;
  name: string;
}

/** A real PDF (pdf-lib); `padding` random bytes ride along as an attachment to make it span chunks. */
export async function makePdf(text: string, padding = 0): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.addPage([300, 200]).drawText(text, { x: 20, y: 100, size: 12 });
  if (padding) await doc.attach(randomBytes(padding), 'data.bin', { mimeType: 'application/octet-stream' });
  return Buffer.from(await doc.save());
}

export let users: ServiceProcess;
export let stocks: ServiceProcess;
export let announcements: ServiceProcess | undefined;
export let gateway: INestApplication;
export let http: ReturnType<typeof request>;
export const dataDir = mkdtempSync(join(tmpdir(), 'irp-announcements-data-'));
export const sessions: Record<string, Session> = {};

export let A: Stock; // editor: EditAnnouncements; sender: SendMailchimp; viewer: ViewConfig only
export let B: Stock; // other: EditAnnouncements and SendMailchimp (the "client of another stock")
export let R: Stock; // resync
export let smallPdf: PdfFile;
export let base: Announcement; // on A, saved by the admin before the tests
export let onB: Announcement;

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

export const get = (path: string, who?: string) => {
  const r = http.get(path);
  return who ? r.set('Cookie', sessions[who].cookie) : r;
};
export const post = (path: string, body: object, who?: string) => {
  const r = http.post(path);
  return (who ? r.set('Cookie', sessions[who].cookie).set(CSRF_HEADER, sessions[who].csrf) : r).send(body);
};
/** POST /api/Announcement/save as the browser sends it: multipart text fields plus the PDF as `file`. */
export const saveForm = (
  combinedTicker: string,
  fields: Record<string, string>,
  who?: string,
  file?: PdfFile,
) => {
  let r = http.post(`/api/Announcement/save/${combinedTicker}`);
  if (who) r = r.set('Cookie', sessions[who].cookie).set(CSRF_HEADER, sessions[who].csrf);
  for (const [name, value] of Object.entries(fields)) r = r.field(name, value);
  if (file) r = r.attach('file', file.data, { filename: file.name, contentType: 'application/pdf' });
  return r;
};
/** GET returning the raw bytes of the answer, whatever its type. */
export const getBytes = (path: string) =>
  http
    .get(path)
    .buffer(true)
    .parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done(null, Buffer.concat(chunks)));
    });

export async function createStock(fields: Record<string, unknown>): Promise<Stock> {
  const res = await post('/api/admin/stocks', fields, 'admin');
  expect(res.body).toMatchObject({ success: true, errorMessage: null });
  return res.body.stock as Stock;
}

export const newApiKey = async () => (await get('/api/admin/apiKey', 'admin')).body.apiKey as string;

export async function save(
  combinedTicker: string,
  fields: Record<string, string>,
  who = 'admin',
  file?: PdfFile,
) {
  const res = await saveForm(combinedTicker, fields, who, file);
  expect({ status: res.status, body: res.body }).toMatchObject({ status: 200 });
  return AnnouncementChangeResponseSchema.parse(res.body).announcement;
}

/** A stock's announcements and initial poll as an admin reads them: what a refused change must not touch. */
export const listOf = async (combinedTicker: string) => {
  const res = await get(`/api/Announcement/list/${combinedTicker}`, 'admin');
  expect(res.status).toBe(200);
  return AnnouncementListSchema.parse(res.body);
};
export const find = async (combinedTicker: string, sendGuid: string) =>
  (await listOf(combinedTicker)).announcements.find((a) => a.sendGuid === sendGuid);
/**
 * What an upload to a stock can leave behind, read where the service keeps it: the stock's announcement
 * rows, the staged chunks of every upload, and every file in the stock's folder of the service's data
 * folder (a PDF, or the temp file it is written through; the demo stocks' initial polls write elsewhere).
 */
export const leftovers = async ({ id: stockId, combinedTicker }: Stock) => {
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

/** Stops the announcements service (a test of the gateway without it; run last in its file). */
export async function stopAnnouncements(): Promise<void> {
  await announcements?.stop();
  announcements = undefined;
}

/** Starts the services and the gateway, signs in, makes the stocks and announcements of this run; undoes it after. */
export function useAnnouncementsGateway(): void {
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
}
