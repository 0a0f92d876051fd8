import { DateTime } from 'luxon';
import { decodePDFRawStream, PDFArray, PDFDocument, PDFRawStream, PDFRef } from 'pdf-lib';
import { mockAnnouncementsOfYear, MockSource } from './mock.source';
import { DocumentRefusedError } from './source';

const NOW = new Date('2025-06-30T02:00:00Z');
const SYDNEY = 'Australia/Sydney';

/** The text drawn on one page: pdf-lib writes each line as a hex string shown with Tj. */
function textOfPage(doc: PDFDocument, index: number): string {
  const contents = doc.getPage(index).node.Contents();
  const streams = contents instanceof PDFArray ? contents.asArray() : contents ? [contents] : [];
  return streams
    .map((s) => (s instanceof PDFRef ? doc.context.lookup(s) : s))
    .filter((s): s is PDFRawStream => s instanceof PDFRawStream)
    .map((s) => Buffer.from(decodePDFRawStream(s).decode()).toString('latin1'))
    .join('\n')
    .match(/<([0-9A-Fa-f]*)>\s*Tj/g)!
    .map((tj) => Buffer.from(tj.slice(1, tj.indexOf('>')), 'hex').toString('latin1'))
    .join('\n');
}

describe('mockAnnouncementsOfYear', () => {
  it('gives the same list for the same ticker and year, and another for another', () => {
    expect(mockAnnouncementsOfYear('BHP', 2024, NOW)).toEqual(mockAnnouncementsOfYear('bhp', 2024, NOW));
    const bhp = mockAnnouncementsOfYear('BHP', 2024, NOW).map((a) => a.releasedAt);
    expect(mockAnnouncementsOfYear('CBA', 2024, NOW).map((a) => a.releasedAt)).not.toEqual(bhp);
    expect(mockAnnouncementsOfYear('BHP', 2023, NOW).map((a) => a.releasedAt)).not.toEqual(bhp);
  });

  it('gives 20 to 60 a year, on weekdays in Sydney business hours, newest first with unique keys', () => {
    const counts = new Set<number>();
    for (const ticker of ['BHP', 'CBA', 'CSL', 'PLS', 'WES', 'OZL', 'WOW', 'XRO']) {
      for (const year of [2019, 2020, 2021, 2022, 2023, 2024]) {
        const list = mockAnnouncementsOfYear(ticker, year, NOW);
        counts.add(list.length);
        expect(list.length).toBeGreaterThanOrEqual(20);
        expect(list.length).toBeLessThanOrEqual(60);
        expect(new Set(list.map((a) => a.sourceKey)).size).toBe(list.length);
        list.forEach((a, i) => {
          const local = DateTime.fromISO(a.releasedAt, { zone: SYDNEY });
          expect(local.year).toBe(year);
          expect(local.weekday).toBeLessThanOrEqual(5);
          expect(local.hour).toBeGreaterThanOrEqual(9);
          expect(local.hour).toBeLessThan(17);
          expect(Date.parse(a.releasedAt)).toBe(a.releasedAtMs);
          expect(a.sourceKey).toMatch(new RegExp(`^mock-${ticker}-${local.toFormat('yyyyMMddHHmm')}-\\d+$`));
          expect(a.documentUrl).toBe(`mock:${a.sourceKey}`);
          if (i > 0) expect(list[i - 1].releasedAtMs).toBeGreaterThanOrEqual(a.releasedAtMs);
        });
      }
    }
    // Not one fixed size: the count itself is drawn.
    expect(counts.size).toBeGreaterThan(3);
  });

  it('never releases in the future', () => {
    const thisYear = mockAnnouncementsOfYear('BHP', 2025, NOW);
    expect(thisYear.length).toBeGreaterThan(0);
    for (const a of thisYear) expect(a.releasedAtMs).toBeLessThanOrEqual(NOW.getTime());
    expect(mockAnnouncementsOfYear('BHP', 2026, NOW)).toEqual([]);
  });

  it('has the routine forms and the calendar of a listed company, price-sensitive where it matters', () => {
    for (const year of [2021, 2022, 2023, 2024]) {
      const headlines = mockAnnouncementsOfYear('WES', year, NOW).map((a) => a.headline);
      expect(headlines).toContain('Appendix 3B - Proposed issue of securities');
      expect(headlines).toContain("Appendix 3Y - Change of Director's Interest Notice");
      expect(headlines).toContain('Half Year Results');
      expect(headlines).toContain('Quarterly Activities Report');
      expect(headlines).toContain('Annual Report to shareholders');
      expect(headlines).toContain('Notice of Annual General Meeting');
    }
    const all = ['BHP', 'CBA', 'CSL', 'PLS', 'WES', 'OZL', 'WOW'].flatMap((t) =>
      [2022, 2023, 2024].flatMap((y) => mockAnnouncementsOfYear(t, y, NOW)),
    );
    const headlines = new Set(all.map((a) => a.headline));
    for (const form of [
      'Appendix 2A',
      'Appendix 3G',
      'Appendix 3C - Buy-back',
      'Investor Presentation',
      'Trading Halt',
    ]) {
      expect(headlines).toContain(form);
    }
    for (const a of all) {
      if (
        /Results|Trading Halt|Presentation|Quarterly/.test(a.headline) &&
        a.headline !== 'Results of Meeting'
      ) {
        expect(a.priceSensitive).toBe(true);
      }
      if (a.headline.startsWith('Appendix')) expect(a.priceSensitive).toBe(false);
    }
  });
});

describe('MockSource', () => {
  const source = new MockSource({ now: () => NOW });

  it('is a per-company service', () => {
    expect(source).toMatchObject({ name: 'mock', marketWide: false });
  });

  it('answers the latest 20 up to now, reaching into last year early in January', async () => {
    const latest = await source.latest('CSL');
    expect(latest).toHaveLength(20);
    expect(latest[0]).toEqual(
      expect.objectContaining({ sourceKey: mockAnnouncementsOfYear('CSL', 2025, NOW)[0].sourceKey }),
    );
    expect(latest[0]).not.toHaveProperty('releasedAtMs');

    const earlyJanuary = new MockSource({ now: () => new Date('2025-01-03T00:00:00Z') });
    const early = await earlyJanuary.latest('CSL');
    expect(early).toHaveLength(20);
    expect(early.some((a) => a.releasedAt.startsWith('2024-'))).toBe(true);
  });

  it("answers a year's announcements", async () => {
    const ofYear = await source.announcementsOfYear('PLS', 2023);
    expect(ofYear.map((a) => a.sourceKey)).toEqual(
      mockAnnouncementsOfYear('PLS', 2023, NOW).map((a) => a.sourceKey),
    );
  });

  it('downloads a real, deterministic PDF of 2-4 pages with the headline, ticker and date on page one', async () => {
    const [announcement] = await source.announcementsOfYear('BHP', 2024);
    const first = await source.download(announcement.documentUrl);
    const again = await new MockSource({ now: () => NOW }).download(announcement.documentUrl);
    expect(first.bytes.equals(again.bytes)).toBe(true);
    expect(first.finalUrl).toBe(announcement.documentUrl);

    const doc = await PDFDocument.load(first.bytes);
    expect(doc.getPageCount()).toBe(announcement.numberOfPages);
    expect(doc.getPageCount()).toBeGreaterThan(1);
    expect(doc.getPageCount()).toBeLessThanOrEqual(4);
    const text = textOfPage(doc, 0);
    expect(text).toContain(announcement.headline);
    expect(text).toContain('BHP');
    const day = DateTime.fromISO(announcement.releasedAt, { zone: SYDNEY, locale: 'en-US' });
    expect(text).toContain(`${day.day} ${day.toFormat('LLL yyyy')}`);
  });

  it('refuses a document it did not make', async () => {
    await expect(source.download('mock:mock-BHP-202401010000-999')).rejects.toThrow(DocumentRefusedError);
    await expect(source.download('https://example.com/a.pdf')).rejects.toThrow(DocumentRefusedError);
  });
});
