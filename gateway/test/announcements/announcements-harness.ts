import { randomBytes } from 'node:crypto';
import { type Dirent, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Announcement,
  AnnouncementChangeResponseSchema,
  AnnouncementListSchema,
  CSRF_HEADER,
  Stock,
} from '@irp/proto';
import { ServiceProcess } from '@irp/platform/testing';
import { PDFDocument } from 'pdf-lib';
import request from 'supertest';
import { clientOf, connectTestDatabase, createStockAsAdmin, Session, signIn } from '../gateway-harness';

/**
 * What the announcement use cases (the `*.cases.ts` beside this file) share. announcements.int-spec.ts
 * starts the services and the gateway once, fills in an `AnnouncementsRun` in its beforeAll and registers
 * every case module with it; a case reads the run's fields inside its tests and hooks only (describe bodies
 * run before beforeAll).
 */

const RUN = Date.now().toString(36).slice(-6).toUpperCase();
/** A ticker unique to this run. */
export const T = (prefix: string) => `${prefix}${RUN}`;
export const PASSWORD = 'AnnouncementsTest!2026';
export const STOCK_PAGE_TIMEOUT_MS = 1000;
/** The spec's date format (Sydney time): 22 Mar 2025 8:50 AM is 21:50 UTC the day before (AEDT, +11). */
export const DATE = '22 Mar 2025 8:50 AM';
export const DATE_UTC = '2025-03-21T21:50:00.000Z';

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

export class AnnouncementsRun {
  http!: ReturnType<typeof request>;
  /** The announcements service's process; undefined once the service-down cases stopped it. */
  announcements: ServiceProcess | undefined;
  /** The announcements service's data folder (its PDFs). */
  readonly dataDir = mkdtempSync(join(tmpdir(), 'irp-announcements-data-'));
  /** Sessions by name: admin, reports (the demo users), editor, sender, viewer, other (ours). */
  readonly sessions: Record<string, Session> = {};

  A!: Stock; // editor: EditAnnouncements; sender: SendMailchimp; viewer: ViewConfig only
  B!: Stock; // other: EditAnnouncements and SendMailchimp (the "client of another stock")
  R!: Stock; // resync
  smallPdf!: PdfFile;
  base!: Announcement; // on A, saved by the admin before the tests
  onB!: Announcement;

  readonly signIn = (username: string, password: string) => signIn(this.http, username, password);
  readonly get = (path: string, who?: string) => clientOf(this.http, this.sessions).get(path, who);
  readonly post = (path: string, body: object | string, who?: string) =>
    clientOf(this.http, this.sessions).post(path, body, who);
  readonly createStock = (fields: Record<string, unknown>) => createStockAsAdmin(this.post, fields);
  readonly newApiKey = async () => (await this.get('/api/admin/apiKey', 'admin')).body.apiKey as string;

  /** POST /api/Announcement/save as the browser sends it: multipart text fields plus the PDF as `file`. */
  readonly saveForm = (
    combinedTicker: string,
    fields: Record<string, string>,
    who?: string,
    file?: PdfFile,
  ) => {
    let r = this.http.post(`/api/Announcement/save/${combinedTicker}`);
    if (who) r = r.set('Cookie', this.sessions[who].cookie).set(CSRF_HEADER, this.sessions[who].csrf);
    for (const [name, value] of Object.entries(fields)) r = r.field(name, value);
    if (file) r = r.attach('file', file.data, { filename: file.name, contentType: 'application/pdf' });
    return r;
  };

  /** GET returning the raw bytes of the answer, whatever its type. */
  readonly getBytes = (path: string) =>
    this.http
      .get(path)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });

  readonly save = async (
    combinedTicker: string,
    fields: Record<string, string>,
    who = 'admin',
    file?: PdfFile,
  ) => {
    const res = await this.saveForm(combinedTicker, fields, who, file);
    expect({ status: res.status, body: res.body }).toMatchObject({ status: 200 });
    return AnnouncementChangeResponseSchema.parse(res.body).announcement;
  };

  /** A stock's announcements and initial poll as an admin reads them: what a refused change must not touch. */
  readonly listOf = async (combinedTicker: string) => {
    const res = await this.get(`/api/Announcement/list/${combinedTicker}`, 'admin');
    expect(res.status).toBe(200);
    return AnnouncementListSchema.parse(res.body);
  };

  readonly find = async (combinedTicker: string, sendGuid: string) =>
    (await this.listOf(combinedTicker)).announcements.find((a) => a.sendGuid === sendGuid);

  /**
   * What an upload to a stock can leave behind, read where the service keeps it: the stock's announcement
   * rows, the staged chunks of every upload, and every file in the stock's folder of the service's data
   * folder (a PDF, or the temp file it is written through; the demo stocks' initial polls write elsewhere).
   */
  readonly leftovers = async ({ id: stockId, combinedTicker }: Stock) => {
    const folder = join(this.dataDir, combinedTicker.replace(/[^A-Za-z0-9]+/g, '-'));
    const pg = await connectTestDatabase();
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
        .map((d) => join(d.parentPath, d.name))
        .sort();
      return { rows, parts, files };
    } finally {
      await pg.end();
    }
  };
}
