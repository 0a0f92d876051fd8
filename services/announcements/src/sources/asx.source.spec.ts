import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { DateTime } from 'luxon';
import { vendorInvalidAnswers } from '@irp/platform';
import { AsxStandIn, startAsxStandIn } from '@irp/standins/asx';
import { AsxSource, parseAsxTimestamp, sydneyYearBounds } from './asx.source';
import { DocumentFetcher } from './document-fetcher';
import { resolveAgainst } from './http';
import { mockAnnouncementsOfYear } from './mock.source';
import { SourceUnavailableError } from './source';

const NOW = new Date('2025-06-30T02:00:00Z');
const SYDNEY = 'Australia/Sydney';

describe('AsxSource against the stand-in', () => {
  let standIn: AsxStandIn;
  let documents: DocumentFetcher;
  const source = (extra: Partial<ConstructorParameters<typeof AsxSource>[0]> = {}) =>
    new AsxSource({ baseUrl: standIn.url, timeoutMs: 10_000, documents, ...extra });

  beforeAll(async () => {
    standIn = await startAsxStandIn({
      seedTickers: ['BHP', 'CBA'],
      seedYears: [2023, 2024, 2025],
      now: () => NOW,
    });
    documents = new DocumentFetcher({ timeoutMs: 10_000, baseUrls: [standIn.url] });
  });
  afterAll(async () => {
    await documents.close();
    await standIn.close();
  });

  it('reads the latest page of a ticker, newest first, mapped to SourceAnnouncement', async () => {
    const latest = await source().latest('bhp');
    const held = standIn.announcements('BHP');
    expect(latest).toHaveLength(20);
    expect(latest.map((a) => a.sourceKey)).toEqual(held.slice(0, 20).map((a) => a.id));
    const [first] = latest;
    expect(first).toEqual({
      sourceKey: held[0].id,
      ticker: 'BHP',
      headline: held[0].headline,
      releasedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+1[01]:00$/),
      priceSensitive: held[0].priceSensitive,
      documentUrl: held[0].documentUrl,
      numberOfPages: held[0].pages,
      size: held[0].size,
    });
    expect(Date.parse(first.releasedAt)).toBe(Date.parse(held[0].releasedAt));
    for (let i = 1; i < latest.length; i++) {
      expect(Date.parse(latest[i - 1].releasedAt)).toBeGreaterThanOrEqual(Date.parse(latest[i].releasedAt));
    }
  });

  it('answers [] for a ticker the feed does not know (404)', async () => {
    await expect(source().latest('NOPE')).resolves.toEqual([]);
    await expect(source().announcementsOfYear('NOPE', 2024)).resolves.toEqual([]);
  });

  it("pages back through paging_next_url to collect one Sydney year's announcements", async () => {
    for (const year of [2025, 2024, 2023]) {
      const expected = mockAnnouncementsOfYear('BHP', year, NOW);
      const found = await source().announcementsOfYear('BHP', year);
      expect(found.map((a) => a.headline)).toEqual(expected.map((a) => a.headline));
      expect(found.map((a) => Date.parse(a.releasedAt))).toEqual(expected.map((a) => a.releasedAtMs));
      const { start, end } = sydneyYearBounds(year);
      for (const a of found)
        expect(Date.parse(a.releasedAt) >= start && Date.parse(a.releasedAt) < end).toBe(true);
    }
    // More than one page per year: the walk really followed the links.
    expect(mockAnnouncementsOfYear('BHP', 2024, NOW).length).toBeGreaterThan(20);
    await expect(source().announcementsOfYear('BHP', 2022)).resolves.toEqual([]);
  });

  it('fetches each page once while walking year after year, and again once the cache has aged', async () => {
    let clock = 0;
    const asx = source({ now: () => clock });
    const before = standIn.feedRequests();
    await asx.announcementsOfYear('CBA', 2023);
    const walk = standIn.feedRequests() - before;
    expect(walk).toBeGreaterThan(3);
    expect(asx.cachedPages).toBe(walk);

    await asx.announcementsOfYear('CBA', 2024);
    await asx.announcementsOfYear('CBA', 2025);
    expect(standIn.feedRequests() - before).toBe(walk);

    clock += 11 * 60_000;
    await asx.announcementsOfYear('CBA', 2025);
    expect(standIn.feedRequests() - before).toBeGreaterThan(walk);
  });

  it('keeps the cache bounded', async () => {
    const asx = source({ cacheMaxPages: 2 });
    await asx.announcementsOfYear('CBA', 2023);
    expect(asx.cachedPages).toBe(2);
  });

  it('sees an announcement as soon as it is published', async () => {
    const published = standIn.publish({
      ticker: 'CBA',
      headline: 'Trading Halt',
      priceSensitive: true,
      releasedAt: '2025-06-30T01:59:00Z',
    });
    const [first] = await source().latest('CBA');
    expect(first).toMatchObject({ sourceKey: published.id, headline: 'Trading Halt', priceSensitive: true });
    expect(first.releasedAt).toBe('2025-06-30T11:59:00+10:00');
  });

  it('retries a 5xx, turns one that outlasts every attempt into SourceUnavailableError with the status, and recovers on the next call', async () => {
    standIn.failNext(1, 503);
    await expect(source({ maxAttempts: 3, retryDelayMs: 10 }).latest('BHP')).resolves.toHaveLength(20);
    standIn.failNext(3, 503);
    const error = await source({ maxAttempts: 3, retryDelayMs: 10 })
      .latest('BHP')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SourceUnavailableError);
    expect(error).toMatchObject({ status: 503 });
    await expect(source().latest('BHP')).resolves.toHaveLength(20);
  });

  it('gives up after the timeout with SourceUnavailableError', async () => {
    // Held 10 s: the message names the 200 ms that ended the wait (no elapsed time asserted: a loaded machine).
    standIn.delayNext(1, 10_000);
    const error = await source({ timeoutMs: 200, maxAttempts: 1 })
      .latest('BHP')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SourceUnavailableError);
    expect((error as Error).message).toMatch(/did not answer within 200 ms/);
  });

  it("waits out a 429's Retry-After before its next attempt (the stand-in kit's fault)", async () => {
    standIn.faults.set({ kind: 'fail', route: 'feed', status: 429, retryAfterSeconds: 1, times: 1 });
    const before = standIn.feedRequests();
    const started = Date.now();
    // A backoff of 10 ms: only the Retry-After can make the second attempt wait a second.
    await expect(source({ maxAttempts: 2, retryDelayMs: 10 }).latest('BHP')).resolves.toHaveLength(20);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(standIn.feedRequests() - before).toBe(2);
  });

  it('gives up on a feed request the vendor holds unanswered, then reads again once released', async () => {
    standIn.faults.set({ kind: 'hold', route: 'company-announcements' });
    try {
      const error = await source({ timeoutMs: 300, maxAttempts: 1 })
        .latest('BHP')
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SourceUnavailableError);
      expect((error as Error).message).toMatch(/did not answer within 300 ms/);
    } finally {
      standIn.faults.clear({ kind: 'hold' });
    }
    await expect(source().latest('BHP')).resolves.toHaveLength(20);
  });

  it('turns a refused connection into SourceUnavailableError', async () => {
    const gone = await startAsxStandIn();
    await gone.close();
    const asx = new AsxSource({ baseUrl: gone.url, timeoutMs: 1000, documents, retryDelayMs: 10 });
    await expect(asx.latest('BHP')).rejects.toThrow(SourceUnavailableError);
  });

  it('downloads the PDF an item links to', async () => {
    const [first] = await source().latest('BHP');
    const document = await source().download(first.documentUrl);
    expect(document.bytes.subarray(0, 4).toString()).toBe('%PDF');
  });
});

describe('AsxSource against a feed that answers badly', () => {
  let server: Server;
  let baseUrl: string;
  let answer = { status: 200, type: 'application/json', body: '' };
  const documents = new DocumentFetcher({ timeoutMs: 1000, baseUrls: [] });

  beforeAll(async () => {
    server = createServer((_req, res) => {
      res.writeHead(answer.status, { 'content-type': answer.type });
      res.end(answer.body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('refuses a body that is not JSON as SourceUnavailableError', async () => {
    answer = { status: 200, type: 'text/html', body: '<!DOCTYPE html><html>maintenance</html>' };
    const error = await new AsxSource({ baseUrl, timeoutMs: 1000, documents })
      .latest('BHP')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SourceUnavailableError);
    expect((error as Error).message).toMatch(/not JSON/);
    expect(error).toMatchObject({ status: 200 });
  });

  it('refuses JSON of another shape as SourceUnavailableError naming the field, counted as an invalid answer', async () => {
    answer = {
      status: 200,
      type: 'application/json',
      body: JSON.stringify({ data: [{ id: 'x', header: 'h' }] }),
    };
    const counted = async () =>
      (await vendorInvalidAnswers.get()).values.find((v) => v.labels.vendor === 'announcements:asx')?.value ??
      0;
    const before = await counted();
    const error = await new AsxSource({ baseUrl, timeoutMs: 1000, documents })
      .latest('BHP')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SourceUnavailableError);
    expect((error as Error).message).toMatch(
      /answered a body its API does not describe \(data\.0\.document_release_date/,
    );
    // The platform's vendor kit checked it at the boundary: irp_vendor_invalid_answers_total{vendor}.
    expect(await counted()).toBe(before + 1);
  });

  it('follows an absolute paging_next_url and resolves a relative document link', async () => {
    const pages: Record<string, unknown> = {
      '/asx/1/company/XYZ/announcements?count=20&market_sensitive=false': {
        data: [
          {
            id: '1',
            document_release_date: '2024-03-01T10:00:00+1100',
            relative_url: '/doc/1',
            header: 'A',
            market_sensitive: false,
          },
        ],
        paging_next_url: `${baseUrl}/page2`,
      },
      '/page2': {
        data: [
          {
            id: '2',
            document_release_date: '2023-12-01T10:00:00+1100',
            url: 'https://cdn.example/2.pdf',
            header: 'B',
          },
        ],
        paging_next_url: null,
      },
    };
    server.removeAllListeners('request');
    server.on('request', (req, res) => {
      const page = pages[req.url ?? ''];
      res.writeHead(page ? 200 : 404, { 'content-type': 'application/json' });
      res.end(JSON.stringify(page ?? {}));
    });
    const asx = new AsxSource({ baseUrl, timeoutMs: 1000, documents });
    const of2024 = await asx.announcementsOfYear('xyz', 2024);
    expect(of2024).toEqual([
      {
        sourceKey: '1',
        ticker: 'XYZ',
        headline: 'A',
        releasedAt: '2024-03-01T10:00:00+11:00',
        priceSensitive: false,
        documentUrl: `${baseUrl}/doc/1`,
      },
    ]);
    const of2023 = await asx.announcementsOfYear('XYZ', 2023);
    expect(of2023.map((a) => [a.sourceKey, a.documentUrl])).toEqual([['2', 'https://cdn.example/2.pdf']]);
  });

  it('carries the feed’s Retry-After on 429 and 503 for the poller, capped', async () => {
    server.removeAllListeners('request');
    let status = 429;
    server.on('request', (_req, res) => {
      res.writeHead(status, { 'retry-after': status === 429 ? '3' : '3600' }).end();
    });
    const asx = new AsxSource({ baseUrl, timeoutMs: 1000, documents });
    await expect(asx.latest('BHP')).rejects.toMatchObject({ status: 429, retryAfterMs: 3000 });
    status = 503;
    await expect(asx.latest('BHP')).rejects.toMatchObject({ status: 503, retryAfterMs: 10_000 });
    status = 500;
    await expect(asx.latest('BHP')).rejects.toMatchObject({ status: 500, retryAfterMs: undefined });
  });

  it('refuses a paging_next_url to a host that is not the feed’s, such as the metadata address', async () => {
    server.removeAllListeners('request');
    server.on('request', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          data: [{ id: '1', document_release_date: '2024-03-01T10:00:00+1100', header: 'A' }],
          paging_next_url: 'http://169.254.169.254/latest/meta-data/',
        }),
      );
    });
    const error = await new AsxSource({ baseUrl, timeoutMs: 1000, documents })
      .announcementsOfYear('XYZ', 2023)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SourceUnavailableError);
    expect((error as Error).message).toMatch(/was refused: 169\.254\.169\.254 is not a host of/);
  });
});

describe('ASX feed helpers', () => {
  it('reads ASX timestamps with or without a colon in the offset, keeping the offset', () => {
    expect(parseAsxTimestamp('2019-12-20T13:43:43+1100')).toBe('2019-12-20T13:43:43+11:00');
    expect(parseAsxTimestamp('2019-07-20T13:43:43+10:00')).toBe('2019-07-20T13:43:43+10:00');
    expect(parseAsxTimestamp('2024-11-22T05:10:00.000Z')).toBe('2024-11-22T05:10:00Z');
    expect(parseAsxTimestamp('yesterday')).toBeNull();
  });

  it('bounds a year in Sydney time', () => {
    const { start, end } = sydneyYearBounds(2024);
    expect(new Date(start).toISOString()).toBe('2023-12-31T13:00:00.000Z');
    expect(new Date(end).toISOString()).toBe('2024-12-31T13:00:00.000Z');
    expect(DateTime.fromMillis(start, { zone: SYDNEY }).toFormat('yyyy-MM-dd HH:mm')).toBe(
      '2024-01-01 00:00',
    );
  });

  it('resolves feed links against the base URL, keeping a path prefix', () => {
    expect(resolveAgainst('https://www.asx.com.au/', '/asx/1/x?a=1')).toBe(
      'https://www.asx.com.au/asx/1/x?a=1',
    );
    expect(resolveAgainst('http://proxy/asx-feed', '/asx/1/x')).toBe('http://proxy/asx-feed/asx/1/x');
    expect(resolveAgainst('http://proxy/asx-feed', 'https://other/y')).toBe('https://other/y');
    expect(resolveAgainst('http://proxy/asx-feed', 'z?p=2')).toBe('http://proxy/asx-feed/z?p=2');
  });
});
