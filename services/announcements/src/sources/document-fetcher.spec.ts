import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { PDFDocument } from 'pdf-lib';
import { AsxStandIn, StandInAnnouncement, startAsxStandIn } from '../standin/asx-standin';
import { DocumentFetcher, findPdfUrlInHtml, formatByteLimit } from './document-fetcher';
import { DocumentRefusedError, SourceUnavailableError } from './source';

// Browser mode runs the system's Chromium (Debian's `chromium` package), never one Playwright downloads.
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected the download to be refused');
    },
    (error: unknown) => {
      expect(error).toBeInstanceOf(DocumentRefusedError);
      return error as DocumentRefusedError;
    },
  );

describe('DocumentFetcher against the stand-in', () => {
  let standIn: AsxStandIn;
  let item: StandInAnnouncement;
  const plain = new DocumentFetcher({ timeoutMs: 5000 });
  const browser = new DocumentFetcher({ timeoutMs: 30_000, useBrowser: true, chromiumPath: CHROMIUM_PATH });

  beforeAll(async () => {
    standIn = await startAsxStandIn();
    item = standIn.publish({ ticker: 'BHP', headline: 'Half Year Results', priceSensitive: true, pages: 3 });
  });
  afterEach(() => standIn.setMode('direct'));
  afterAll(async () => {
    await plain.close();
    await browser.close();
    await standIn.close();
  });

  it('downloads a PDF linked directly', async () => {
    const document = await plain.download(item.documentUrl);
    expect(document.finalUrl).toBe(item.documentUrl);
    expect(document.bytes.subarray(0, 4).toString()).toBe('%PDF');
    expect((await PDFDocument.load(document.bytes)).getPageCount()).toBe(3);
  });

  it('follows the hidden pdfURL of a terms page by reading its HTML', async () => {
    standIn.setMode('terms');
    const page = await (await fetch(item.documentUrl)).text();
    expect(page).toContain('name="pdfURL"');
    const document = await plain.download(item.documentUrl);
    expect(document.finalUrl).toBe(item.pdfUrl);
    expect(document.bytes.subarray(0, 4).toString()).toBe('%PDF');
  });

  it('follows the terms page of the Markit file route too', async () => {
    standIn.setMode('terms');
    const document = await plain.download(item.fileUrl);
    expect(document.finalUrl).toBe(item.pdfUrl);
  });

  it('refuses a terms page it cannot follow without a browser', async () => {
    standIn.setMode('agree');
    const error = await refusal(plain.download(item.documentUrl));
    expect(error.message).toMatch(/^not a PDF \(starts with "<!DO"\): an HTML page without a pdfURL link/);
  });

  it('follows the hidden pdfURL of a terms page in headless Chromium', async () => {
    standIn.setMode('terms');
    const document = await browser.download(item.documentUrl);
    expect(document.finalUrl).toBe(item.pdfUrl);
    expect(document.bytes.subarray(0, 4).toString()).toBe('%PDF');
  }, 60_000);

  it("clicks a terms page's Agree button in headless Chromium when it carries no pdfURL", async () => {
    standIn.setMode('agree');
    const document = await browser.download(item.fileUrl);
    expect(document.finalUrl).toBe(item.pdfUrl);
    expect((await PDFDocument.load(document.bytes)).getPageCount()).toBe(3);
  }, 60_000);

  it('shares one browser across downloads and launches a new one after close()', async () => {
    standIn.setMode('terms');
    const shared = new DocumentFetcher({ timeoutMs: 30_000, useBrowser: true, chromiumPath: CHROMIUM_PATH });
    const [a, b] = await Promise.all([shared.download(item.documentUrl), shared.download(item.fileUrl)]);
    await shared.download(item.documentUrl);
    expect(a.bytes.equals(b.bytes)).toBe(true);
    expect(shared.browsersLaunched).toBe(1);
    await shared.close();
    await expect(shared.download(item.documentUrl)).resolves.toMatchObject({ finalUrl: item.pdfUrl });
    expect(shared.browsersLaunched).toBe(2);
    await shared.close();
  }, 60_000);

  it('reports a Chromium that cannot be launched as SourceUnavailableError', async () => {
    standIn.setMode('terms');
    const broken = new DocumentFetcher({
      timeoutMs: 5000,
      useBrowser: true,
      chromiumPath: '/nonexistent/chromium',
    });
    await expect(broken.download(item.documentUrl)).rejects.toThrow(SourceUnavailableError);
    await broken.close();
  });

  it('refuses what is not a PDF', async () => {
    standIn.setMode('terms');
    const broken = standIn.publish({ ticker: 'BHP', headline: 'Trading Halt', notPdf: true });
    const error = await refusal(plain.download(broken.documentUrl));
    expect(error.message).toBe('not a PDF (starts with "<!DO")');
    expect(error.url).toBe(broken.pdfUrl);
  });

  it('refuses a PDF larger than the limit while reading it', async () => {
    const big = standIn.publish({ ticker: 'BHP', headline: 'Annual Report to shareholders', pages: 40 });
    const small = new DocumentFetcher({ timeoutMs: 5000, maxBytes: 2048 });
    const error = await refusal(small.download(big.documentUrl));
    expect(error.message).toBe('larger than 2 KB');
    // The same document within the default limit (20 MB) is accepted.
    await expect(plain.download(big.documentUrl)).resolves.toMatchObject({ finalUrl: big.documentUrl });
    expect(plain.maxBytes).toBe(20 * 1024 * 1024);
  });

  it('refuses a document the site does not have', async () => {
    const error = await refusal(plain.download(`${standIn.url}/asx-research/1.0/file/2924-00000000-0`));
    expect(error.message).toBe('answered 404');
  });
});

describe('DocumentFetcher against an endless answer', () => {
  let server: Server;
  let url: string;

  beforeAll(async () => {
    // A PDF header followed by data that never ends: only a limit counted while reading stops it.
    server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/pdf' });
      res.write('%PDF-1.7\n');
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const timer = setInterval(() => res.write(chunk), 1);
      res.on('close', () => clearInterval(timer));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/endless.pdf`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('stops reading at the limit instead of buffering it all', async () => {
    const fetcher = new DocumentFetcher({ timeoutMs: 10_000, maxBytes: 1024 * 1024 });
    const error = await refusal(fetcher.download(url));
    expect(error.message).toBe('larger than 1 MB');
  });

  it('gives up on an answer slower than the timeout with SourceUnavailableError', async () => {
    const fetcher = new DocumentFetcher({ timeoutMs: 300, maxBytes: 1024 * 1024 * 1024 });
    await expect(fetcher.download(url)).rejects.toThrow(SourceUnavailableError);
  });
});

describe('terms page and limit helpers', () => {
  it('finds the pdfURL input whatever the attribute order and quoting, resolved against the page', () => {
    const page = 'https://www.asx.com.au/asx/v2/statistics/displayAnnouncement.do?display=pdf&idsId=02183296';
    expect(
      findPdfUrlInHtml(
        '<form><input type="hidden" name="pdfURL" value="/asxpdf/20191220/pdf/44cq.pdf"></form>',
        page,
      ),
    ).toBe('https://www.asx.com.au/asxpdf/20191220/pdf/44cq.pdf');
    expect(
      findPdfUrlInHtml(
        "<INPUT value='https://cdn.example/a.pdf?x=1&amp;y=2' NAME='pdfURL' type=hidden>",
        page,
      ),
    ).toBe('https://cdn.example/a.pdf?x=1&y=2');
    expect(findPdfUrlInHtml('<input name="idsId" value="1"><input name="pdfURL" value="">', page)).toBeNull();
    expect(findPdfUrlInHtml('<html>no form</html>', page)).toBeNull();
  });

  it('states limits as a person reads them', () => {
    expect(formatByteLimit(20 * 1024 * 1024)).toBe('20 MB');
    expect(formatByteLimit(1.5 * 1024 * 1024)).toBe('1.5 MB');
    expect(formatByteLimit(2048)).toBe('2 KB');
    expect(formatByteLimit(900)).toBe('900 bytes');
  });
});
