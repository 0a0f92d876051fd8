import { PDFDocument } from 'pdf-lib';
import { buildAnnouncementPdf } from './pdf';

describe('buildAnnouncementPdf', () => {
  const input = {
    title: 'Quarterly Activities Report',
    ticker: 'pls',
    date: '2025-03-21T21:50:00Z',
    pages: 3,
  };

  it('builds a PDF of the pages asked, titled with the ticker and headline', async () => {
    const bytes = await buildAnnouncementPdf(input);
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const doc = await PDFDocument.load(bytes);
    expect(doc.getPageCount()).toBe(3);
    expect(doc.getTitle()).toBe('PLS: Quarterly Activities Report');
    expect(doc.getCreationDate()?.toISOString()).toBe('2025-03-21T21:50:00.000Z');
  });

  it('gives the same bytes for the same input', async () => {
    const a = await buildAnnouncementPdf(input);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const b = await buildAnnouncementPdf({ ...input, date: new Date(input.date) });
    expect(a.equals(b)).toBe(true);
    expect(a.equals(await buildAnnouncementPdf({ ...input, pages: 2 }))).toBe(false);
  });

  it('accepts headlines with characters the standard fonts cannot draw', async () => {
    const bytes = await buildAnnouncementPdf({
      ...input,
      title: 'Director’s “notice” – 2025 ✓ 株',
      pages: 1,
    });
    expect((await PDFDocument.load(bytes)).getTitle()).toBe('PLS: Director\'s "notice" - 2025 ? ?');
  });
});
