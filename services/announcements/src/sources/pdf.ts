import { formatDateTime } from '@irp/proto';
import { PDFDocument, PDFFont, StandardFonts, rgb } from 'pdf-lib';

export interface AnnouncementPdfInput {
  title: string;
  ticker: string;
  /** Release time: printed on the first page in Sydney time and used as the PDF's dates. */
  date: Date | string;
  /** Page count, at least 1. */
  pages: number;
}

const PAGE_WIDTH = 595.28;
const PAGE_HEIGHT = 841.89;
const MARGIN = 56;

// The standard fonts only encode WinAnsi: typographic quotes and dashes map to their ASCII look-alikes and
// anything else becomes '?', so a headline typed with any character still makes a PDF instead of throwing.
const LOOK_ALIKES: Record<string, string> = {
  '\u2018': "'",
  '\u2019': "'",
  '\u201c': '"',
  '\u201d': '"',
  '\u2013': '-',
  '\u2014': '-',
};
const printable = (text: string) =>
  text
    .replace(/[\u2018\u2019\u201c\u201d\u2013\u2014]/g, (c) => LOOK_ALIKES[c] ?? '?')
    .replace(/[^\x20-\x7e\xa0-\xff]/g, '?');

function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const candidate = line ? `${line} ${word}` : word;
    if (line && font.widthOfTextAtSize(candidate, size) > width) {
      lines.push(line);
      line = word;
    } else line = candidate;
  }
  if (line) lines.push(line);
  return lines;
}

// Body text is a fixed paragraph, not random: the same input must give the same bytes (the mock's and the
// stand-in's documents are compared byte for byte).
const BODY =
  'This document is a generated stand-in for a company announcement. It carries no information about the ' +
  'issuer and exists so that downloading, storing, checking and sending announcement documents can be ' +
  'exercised end to end without the real market announcements platform.';

/** A real, deterministic multi-page PDF of an announcement: the headline, ticker and date on the first page. */
export async function buildAnnouncementPdf(input: AnnouncementPdfInput): Promise<Buffer> {
  const date = typeof input.date === 'string' ? new Date(input.date) : input.date;
  const pages = Math.max(1, Math.floor(input.pages));
  const title = printable(input.title);
  const ticker = printable(input.ticker.toUpperCase());
  const doc = await PDFDocument.create();
  // pdf-lib stamps "now" by default, which would make every build differ.
  doc.setCreationDate(date);
  doc.setModificationDate(date);
  doc.setTitle(`${ticker}: ${title}`);
  doc.setAuthor(ticker);
  doc.setProducer('IR Portal announcement stand-in');
  doc.setCreator('IR Portal announcement stand-in');
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const width = PAGE_WIDTH - 2 * MARGIN;

  for (let n = 1; n <= pages; n++) {
    const page = doc.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
    let y = PAGE_HEIGHT - MARGIN;
    const write = (text: string, font: PDFFont, size: number) => {
      for (const line of wrap(text, font, size, width)) {
        page.drawText(line, { x: MARGIN, y, size, font, color: rgb(0.1, 0.1, 0.1) });
        y -= size * 1.4;
      }
    };
    if (n === 1) {
      write(`ASX: ${ticker}`, bold, 14);
      write(printable(formatDateTime(date)), regular, 11);
      y -= 12;
      write(title, bold, 20);
      y -= 12;
    } else {
      write(`${ticker} - ${title}`, bold, 12);
      y -= 8;
    }
    write(BODY, regular, 11);
    page.drawText(`Page ${n} of ${pages}`, { x: MARGIN, y: MARGIN / 2, size: 9, font: regular });
  }
  return Buffer.from(await doc.save());
}
