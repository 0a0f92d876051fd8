import { createServer, Server } from 'node:http';
import type { AddressInfo, LookupFunction, Socket } from 'node:net';
import { PDFDocument } from 'pdf-lib';
import { AsxStandIn, StandInAnnouncement, startAsxStandIn } from '@irp/standins/asx';
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
  let plain: DocumentFetcher;
  let browser: DocumentFetcher;

  beforeAll(async () => {
    standIn = await startAsxStandIn();
    plain = new DocumentFetcher({ timeoutMs: 5000, baseUrls: [standIn.url] });
    browser = new DocumentFetcher({
      timeoutMs: 30_000,
      baseUrls: [standIn.url],
      useBrowser: true,
      chromiumPath: CHROMIUM_PATH,
    });
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
    const shared = new DocumentFetcher({
      timeoutMs: 30_000,
      baseUrls: [standIn.url],
      useBrowser: true,
      chromiumPath: CHROMIUM_PATH,
    });
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
      baseUrls: [standIn.url],
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
    const small = new DocumentFetcher({ timeoutMs: 5000, baseUrls: [standIn.url], maxBytes: 2048 });
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
    const fetcher = new DocumentFetcher({ timeoutMs: 10_000, baseUrls: [url], maxBytes: 1024 * 1024 });
    const error = await refusal(fetcher.download(url));
    expect(error.message).toBe('larger than 1 MB');
  });

  it('gives up on an answer slower than the timeout with SourceUnavailableError', async () => {
    const fetcher = new DocumentFetcher({
      timeoutMs: 300,
      baseUrls: [url],
      maxBytes: 1024 * 1024 * 1024,
      retryDelayMs: 10,
    });
    await expect(fetcher.download(url)).rejects.toThrow(SourceUnavailableError);
  });
});

describe('DocumentFetcher refusing links that leave the vendor (SSRF guard)', () => {
  let vendor: Server;
  let vendorUrl: string;
  let internal: Server;
  let internalPort: number;
  let internalHits = 0;
  /** TCP connections the internal server accepted, whatever they carried (HTTP, a WebSocket's upgrade). */
  let internalConnections = 0;
  let page = '';

  const listen = async (server: Server) => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return (server.address() as AddressInfo).port;
  };
  const fetcher = (extra: Partial<ConstructorParameters<typeof DocumentFetcher>[0]> = {}) =>
    new DocumentFetcher({ timeoutMs: 2000, baseUrls: [vendorUrl], retryDelayMs: 10, ...extra });

  beforeAll(async () => {
    // A server that is not the vendor's, on loopback like an internal admin service.
    internal = createServer((_req, res) => {
      internalHits++;
      res.writeHead(200, { 'content-type': 'application/pdf' }).end('%PDF-1.7 internal secret');
    });
    internal.on('connection', () => internalConnections++);
    internal.on('upgrade', (_req, socket: Socket) => socket.destroy());
    internalPort = await listen(internal);
    // The vendor's stand-in: its terms page links (or redirects) wherever the test says.
    vendor = createServer((req, res) => {
      if (req.url === '/doc.pdf') {
        res.writeHead(200, { 'content-type': 'application/pdf' }).end('%PDF-1.7 the vendor document');
        return;
      }
      if (req.url?.startsWith('/go?to=')) {
        res.writeHead(302, { location: decodeURIComponent(req.url.slice('/go?to='.length)) }).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/html' }).end(page);
    });
    vendorUrl = `http://127.0.0.1:${await listen(vendor)}`;
  });
  beforeEach(() => {
    internalHits = 0;
    internalConnections = 0;
  });
  afterAll(async () => {
    for (const server of [vendor, internal]) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  const termsLinking = (href: string) =>
    `<!DOCTYPE html><html><form><input type="hidden" name="pdfURL" value="${href}"></form></html>`;

  it('refuses a pdfURL on a host that is not the vendor’s', async () => {
    page = termsLinking('https://attacker.example/x.pdf');
    const error = await refusal(fetcher().download(`${vendorUrl}/terms`));
    expect(error.message).toMatch(/^refused: attacker\.example is not a host of/);
  });

  it('refuses a pdfURL on 127.0.0.1 that is not the configured stand-in', async () => {
    page = termsLinking(`http://127.0.0.1:${internalPort}/admin.pdf`);
    const error = await refusal(fetcher().download(`${vendorUrl}/terms`));
    expect(error.message).toMatch(/127\.0\.0\.1.*may not reach/);
    expect(internalHits).toBe(0);
  });

  it('refuses a redirect to 127.0.0.1 that is not the configured stand-in', async () => {
    const to = encodeURIComponent(`http://127.0.0.1:${internalPort}/admin.pdf`);
    const error = await refusal(fetcher().download(`${vendorUrl}/go?to=${to}`));
    expect(error.message).toMatch(/127\.0\.0\.1.*may not reach/);
    expect(internalHits).toBe(0);
  });

  it('refuses a redirect to the metadata address 169.254.169.254, even listed as a document host', async () => {
    const to = encodeURIComponent('http://169.254.169.254/latest/meta-data/');
    await expect(fetcher().download(`${vendorUrl}/go?to=${to}`)).rejects.toThrow(/not a host of/);
    const error = await refusal(
      fetcher({ allowedHosts: ['169.254.169.254'] }).download(`${vendorUrl}/go?to=${to}`),
    );
    expect(error.message).toMatch(/169\.254\.169\.254.*may not reach/);
  });

  it('refuses a redirect to a document host whose name resolves to a private range', async () => {
    const asked: string[] = [];
    const privateLookup: LookupFunction = (hostname, options, callback) => {
      asked.push(hostname);
      if ((options as { all?: boolean }).all) callback(null, [{ address: '192.168.10.20', family: 4 }]);
      else callback(null, '192.168.10.20', 4);
    };
    const to = encodeURIComponent(`http://www.asx.com.au:${internalPort}/asxpdf/1.pdf`);
    const error = await refusal(fetcher({ lookup: privateLookup }).download(`${vendorUrl}/go?to=${to}`));
    expect(error.message).toMatch(/www\.asx\.com\.au.*192\.168\.10\.20.*may not reach/);
    expect(asked).toEqual(['www.asx.com.au']);
  });

  describe('in headless Chromium (browser mode)', () => {
    // 'localhost' as a configured document host stands for a vendor name that resolves to loopback: only
    // the resolved address tells it from the vendor, which a check of the host name alone lets through.
    const browserFetcher = (extra: Partial<ConstructorParameters<typeof DocumentFetcher>[0]> = {}) =>
      fetcher({
        useBrowser: true,
        chromiumPath: CHROMIUM_PATH,
        timeoutMs: 10_000,
        allowedHosts: ['localhost', '169.254.169.254', 'www.asx.com.au'],
        ...extra,
      });
    let browser: DocumentFetcher | undefined;
    afterEach(async () => {
      await browser?.close();
      browser = undefined;
    });

    it("fetches none of a terms page's subresources on loopback, link-local or a name resolving privately", async () => {
      const asked: string[] = [];
      // www.asx.com.au is a document host; here it resolves into a private range (DNS rebinding).
      const lookup: LookupFunction = (hostname, options, callback) => {
        asked.push(hostname);
        const address = hostname === 'www.asx.com.au' ? '10.1.2.3' : '127.0.0.1';
        if ((options as { all?: boolean }).all) callback(null, [{ address, family: 4 }]);
        else callback(null, address, 4);
      };
      page = `<!DOCTYPE html><html><head>
        <script src="http://127.0.0.1:${internalPort}/direct.js"></script>
        <script src="http://localhost:${internalPort}/by-name.js"></script>
        <script src="http://169.254.169.254/latest/meta-data/"></script>
        <script src="http://www.asx.com.au:${internalPort}/rebound.js"></script>
        </head><body><form><input type="hidden" name="pdfURL" value="/doc.pdf"></form></body></html>`;
      browser = browserFetcher({ lookup });
      const document = await browser.download(`${vendorUrl}/terms`);
      expect(document.bytes.toString('latin1')).toBe('%PDF-1.7 the vendor document');
      expect(internalHits).toBe(0);
      // The names were resolved by the guard (and refused), not left to Chromium.
      expect(asked).toEqual(expect.arrayContaining(['localhost', 'www.asx.com.au']));
    }, 60_000);

    it('opens no WebSocket from a terms page, to loopback or anywhere (the guard routes HTTP only)', async () => {
      // The Agree button opens a WebSocket to an internal address, and goes on to the PDF once it settled.
      page = `<!DOCTYPE html><html><body><button id="agree">Agree</button><script>
        document.getElementById('agree').onclick = () => {
          const socket = new WebSocket('ws://127.0.0.1:${internalPort}/internal');
          let gone = false;
          const go = () => { if (!gone) { gone = true; location.href = '/doc.pdf'; } };
          socket.onopen = go; socket.onerror = go; socket.onclose = go;
        };
        </script></body></html>`;
      browser = browserFetcher();
      const document = await browser.download(`${vendorUrl}/terms`);
      expect(document.bytes.toString('latin1')).toBe('%PDF-1.7 the vendor document');
      expect(internalConnections).toBe(0);
    }, 60_000);

    it('refuses the document when the Agree button leads through a redirect to loopback', async () => {
      const to = encodeURIComponent(`http://localhost:${internalPort}/admin.pdf`);
      page = `<!DOCTYPE html><html><body>
        <form method="post" action="${vendorUrl}/go?to=${to}"><input type="submit" value="Agree and proceed"></form>
        </body></html>`;
      browser = browserFetcher();
      const error = await refusal(browser.download(`${vendorUrl}/terms`));
      expect(error.message).toMatch(
        /^refused( in Chromium)?: localhost:\d+ resolves to (127\.0\.0\.1|::1).*may not reach/,
      );
      expect(internalHits).toBe(0);
    }, 60_000);
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
