import { randomUUID } from 'node:crypto';
import { AnnouncementChangeResponseSchema, AnnouncementMessages, UPLOAD_CHUNK_BYTES } from '@irp/proto';
import { startTestGateway } from '../gateway-harness';
import { AnnouncementsRun, DATE, DATE_UTC, makePdf, PdfFile } from './announcements-harness';

/** Adding or editing an announcement with its PDF, and serving the PDF. */
export function saveAndPdfCases(t: AnnouncementsRun) {
  const { post, saveForm, getBytes, save, listOf, find, leftovers } = t;
  describe('POST /api/Announcement/save/{combinedTicker} and GET /api/Announcement/pdf/{sendGuid}', () => {
    it('adds an announcement with its PDF (a client editor) and serves the same bytes back', async () => {
      const pdf = { data: await makePdf('Quarterly Activities Report'), name: 'Quarterly.pdf' };
      const res = await saveForm(
        t.A.combinedTicker,
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
        stockId: t.A.id,
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
      expect((await find(t.A.combinedTicker, announcement.sendGuid))?.headline).toBe(
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
        t.A.combinedTicker,
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
        t.A.combinedTicker,
        {
          sendGuid: t.base.sendGuid,
          headline: 'Base announcement (amended)',
          date: DATE,
          priceSensitive: 'false',
        },
        'editor',
      );
      expect(edited).toMatchObject({
        sendGuid: t.base.sendGuid,
        headline: 'Base announcement (amended)',
        headlineOriginal: 'Base announcement',
        pdfUrl: t.base.pdfUrl,
      });
      expect((await getBytes(t.base.pdfUrl!)).body).toEqual(t.smallPdf.data);
    });

    it("edits by the spec's existing headline and date", async () => {
      const added = await save(
        t.A.combinedTicker,
        { headline: 'Appendix 3Y', date: '1 Apr 2025 9:00 AM' },
        'admin',
        t.smallPdf,
      );
      const edited = await save(
        t.A.combinedTicker,
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
      const before = await listOf(t.A.combinedTicker);
      const cases: Array<[Record<string, string>, PdfFile | undefined, string]> = [
        [{ date: DATE }, t.smallPdf, AnnouncementMessages.headlineRequired],
        [{ headline: 'x', date: 'yesterday' }, t.smallPdf, AnnouncementMessages.unparsableDate('yesterday')],
        [{ headline: 'x', date: DATE }, undefined, AnnouncementMessages.fileRequired],
        [
          { headline: 'x', date: DATE },
          { data: Buffer.from('hello, not a pdf'), name: 'hello.pdf' },
          'The file is not a PDF',
        ],
        [
          { headline: 'x', date: DATE, thumbnailPageNum: 'zero' },
          t.smallPdf,
          'thumbnailPageNum: must be a page number from 1',
        ],
        [{ headline: 'x', date: DATE, sendGuid: 'nope' }, undefined, 'sendGuid: must be an announcement id'],
      ];
      const kept = await leftovers(t.A);
      expect(kept.parts).toBe(0);
      for (const [fields, file, message] of cases) {
        const res = await saveForm(t.A.combinedTicker, fields, 'admin', file);
        // No row, no file, no staged chunk: each refusal, the file's too, leaves what was there before.
        expect({
          fields,
          status: res.status,
          errorMessage: res.body.errorMessage,
          left: await leftovers(t.A),
        }).toEqual({ fields, status: 400, errorMessage: message, left: kept });
      }
      expect(await listOf(t.A.combinedTicker)).toEqual(before);
    });

    it('answers 404 for an edit of an announcement that does not exist', async () => {
      const unknown = randomUUID();
      const res = await saveForm(
        t.A.combinedTicker,
        { sendGuid: unknown, headline: 'x', date: DATE },
        'admin',
      );
      expect(res.status).toBe(404);
      expect(res.body.errorMessage).toBe(`Announcement ${unknown} not found`);
    });

    it('refuses a body that is not multipart with 415', async () => {
      const res = await post(
        `/api/Announcement/save/${t.A.combinedTicker}`,
        { headline: 'JSON', date: DATE },
        'admin',
      );
      expect(res.status).toBe(415);
      expect(res.body.errorMessage).toBe('This route takes a multipart/form-data body');
    });

    it('refuses a file over 20 MB with 413 without storing anything, and keeps serving', async () => {
      const before = await listOf(t.A.combinedTicker);
      const huge = {
        data: Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(20 * 1024 * 1024)]),
        name: 'huge.pdf',
      };
      const kept = await leftovers(t.A);
      const res = await saveForm(t.A.combinedTicker, { headline: 'Huge', date: DATE }, 'admin', huge);
      expect(res.status).toBe(413);
      expect(res.body.errorMessage).toBe('The file is larger than 20 MB');
      expect(await leftovers(t.A)).toEqual(kept);
      expect(await listOf(t.A.combinedTicker)).toEqual(before);
    });

    it('limits the public PDFs per client address in the shared store: 429 with Retry-After past it', async () => {
      const { announcement } = AnnouncementChangeResponseSchema.parse(
        (
          await saveForm(t.A.combinedTicker, { headline: 'Limited Reading', date: DATE }, 'editor', {
            data: await makePdf('Limited Reading'),
            name: 'Limited.pdf',
          })
        ).body,
      );
      // A gateway allowing three a window; the addresses are this run's (counts outlive one test file).
      const { gateway, http } = await startTestGateway({ PUBLIC_PDF_RATE_PER_ADDRESS: '3' });
      try {
        const from = (address: string) =>
          http.get(announcement.pdfUrl!).set('X-Forwarded-For', address).buffer(true);
        const reader = `2001:db8:pdf::${randomUUID().slice(0, 4)}`;
        for (let n = 1; n <= 3; n++) expect((await from(reader)).status).toBe(200);
        const refused = await from(reader);
        expect(refused.status).toBe(429);
        expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
        expect(refused.body.errorMessage).toMatch(
          /^Too many announcement PDFs from this address: try again in \d+ seconds$/,
        );
        expect(refused.headers['cache-control']).toBe('no-store');
        // Another reader is not held back.
        expect((await from(`2001:db8:pdf::${randomUUID().slice(0, 4)}`)).status).toBe(200);
      } finally {
        await gateway.close();
      }
    });

    it('answers 404 for an unknown PDF and 400 for a guid that is not one', async () => {
      const unknown = randomUUID();
      const missing = await t.http.get(`/api/Announcement/pdf/${unknown}`);
      expect(missing.status).toBe(404);
      expect(missing.body.errorMessage).toBe(`Announcement ${unknown} not found`);
      // An error is never cached as if it were the file: no-store, as every API answer without its own.
      expect(missing.headers['cache-control']).toBe('no-store');
      const bad = await t.http.get('/api/Announcement/pdf/not-a-guid');
      expect(bad.status).toBe(400);
      expect(bad.body.errorMessage).toBe('must be an announcement id');
    });
  });
}
