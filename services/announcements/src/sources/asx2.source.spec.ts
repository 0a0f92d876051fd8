import { AnsweringServer, startAnsweringServer } from '@irp/platform/testing';
import { AsxStandIn, startAsxStandIn } from '@irp/standins/asx';
import { AsxSource, sydneyYearBounds } from './asx.source';
import { Asx2Source, sourceKeyOfDocumentKey } from './asx2.source';
import { DocumentFetcher } from './document-fetcher';
import { SourceUnavailableError } from './source';

const NOW = new Date('2025-06-30T02:00:00Z');
const TICKERS = Array.from({ length: 12 }, (_, i) => `T${String(i).padStart(2, '0')}`);

describe('Asx2Source against the stand-in', () => {
  let standIn: AsxStandIn;
  let documents: DocumentFetcher;
  const source = (extra: Partial<ConstructorParameters<typeof Asx2Source>[0]> = {}) =>
    new Asx2Source({ baseUrl: standIn.url, asxBaseUrl: standIn.url, timeoutMs: 10_000, documents, ...extra });

  beforeAll(async () => {
    standIn = await startAsxStandIn({ seedTickers: TICKERS, seedYears: [2024, 2025], now: () => NOW });
    documents = new DocumentFetcher({ timeoutMs: 10_000, baseUrls: [standIn.url] });
  });
  afterAll(async () => {
    await documents.close();
    await standIn.close();
  });

  it('is the whole-market service', () => {
    expect(source()).toMatchObject({ name: 'asx2', marketWide: true });
  });

  it('reads the whole market, newest first, page after page while pages are full', async () => {
    const held = TICKERS.flatMap((t) => standIn.announcements(t));
    expect(held.length).toBeGreaterThan(250);
    const before = standIn.feedRequests();
    const market = await source({ itemsPerPage: 100 }).latestMarket();
    expect(market).toHaveLength(held.length);
    expect(standIn.feedRequests() - before).toBe(Math.floor(held.length / 100) + 1);
    expect(new Set(market.map((a) => a.ticker))).toEqual(new Set(TICKERS));
    for (let i = 1; i < market.length; i++) {
      expect(Date.parse(market[i - 1].releasedAt)).toBeGreaterThanOrEqual(Date.parse(market[i].releasedAt));
    }
    const newest = standIn.announcements()[0];
    expect(market[0]).toEqual({
      sourceKey: newest.id,
      ticker: newest.ticker,
      headline: newest.headline,
      releasedAt: new Date(newest.releasedAt).toISOString().replace('.000Z', 'Z'),
      priceSensitive: newest.priceSensitive,
      documentUrl: `${standIn.url}/asx-research/1.0/file/${newest.documentKey}`,
      size: newest.size,
    });
  });

  it('stops at the page limit', async () => {
    const before = standIn.feedRequests();
    const market = await source({ itemsPerPage: 50, maxPages: 2 }).latestMarket();
    expect(market).toHaveLength(100);
    expect(standIn.feedRequests() - before).toBe(2);
  });

  it('stops after the first page that reaches what an earlier read returned', async () => {
    const all = await source({ itemsPerPage: 50 }).latestMarket();
    const published = standIn.publish({ ticker: 'T01', headline: 'Quarterly Activities Report' });
    const before = standIn.feedRequests();
    const seen = new Set(all.map((a) => a.sourceKey));
    const next = await source({ itemsPerPage: 50 }).latestMarket(seen);
    expect(standIn.feedRequests() - before).toBe(1);
    expect(next).toHaveLength(50);
    expect(next.filter((a) => !seen.has(a.sourceKey)).map((a) => a.sourceKey)).toEqual([published.id]);
  });

  it('puts a newly published announcement first in the market feed', async () => {
    const published = standIn.publish({
      ticker: 'NEW',
      headline: 'Investor Presentation',
      priceSensitive: true,
    });
    const [first] = await source({ maxPages: 1 }).latestMarket();
    expect(first).toMatchObject({ ticker: 'NEW', sourceKey: published.id, priceSensitive: true });
  });

  it("reads one ticker's latest five from the per-company variant; [] for an unknown ticker", async () => {
    const latest = await source().latest('t03');
    expect(latest.map((a) => a.sourceKey)).toEqual(
      standIn
        .announcements('T03')
        .slice(0, 5)
        .map((a) => a.id),
    );
    await expect(source().latest('NOPE')).resolves.toEqual([]);
  });

  it('keys a document as the per-company feed does, so switching feeds does not store it twice', async () => {
    const viaMarkit = await source().latest('T05');
    const viaAsx = await new AsxSource({ baseUrl: standIn.url, timeoutMs: 10_000, documents }).latest('T05');
    expect(viaMarkit.map((a) => a.sourceKey)).toEqual(viaAsx.slice(0, 5).map((a) => a.sourceKey));
    expect(sourceKeyOfDocumentKey('2924-02791431-6A1137856')).toBe('02791431');
    expect(sourceKeyOfDocumentKey('opaque-key')).toBe('opaque-key');
  });

  it("takes a year's history from the per-company feed", async () => {
    const ofYear = await source().announcementsOfYear('T01', 2025);
    const { start } = sydneyYearBounds(2025);
    expect(ofYear.map((a) => a.sourceKey)).toEqual(
      standIn
        .announcements('T01')
        .filter((a) => Date.parse(a.releasedAt) >= start)
        .map((a) => a.id),
    );
  });

  it('downloads the document behind the file route', async () => {
    const [first] = await source().latest('T02');
    const document = await source().download(first.documentUrl);
    expect(document.bytes.subarray(0, 4).toString()).toBe('%PDF');
  });

  it('fails with SourceUnavailableError when the market feed answers 500', async () => {
    standIn.failNext(1, 500);
    await expect(source().latestMarket()).rejects.toThrow(SourceUnavailableError);
    await expect(source({ maxPages: 1 }).latestMarket()).resolves.toHaveLength(100);
  });
});

/**
 * The per-company feed as it was recorded (Taylor-Hobbs/asx tests/test_asx_client.py, trimmed here to one item;
 * vendor-descriptions/asx): its items carry no `symbol`, the company's is on `data`.
 */
describe('Asx2Source reading the per-company feed as recorded', () => {
  let server: AnsweringServer;
  let documents: DocumentFetcher;
  let body: unknown;
  const item = {
    announcementType: 'QUARTERLY ACTIVITIES REPORT',
    date: '2026-04-21T22:30:48.000Z',
    documentKey: '2924-03081111-3A691768',
    fileSize: '132KB',
    headline: 'Quarterly Activities Report',
    isPriceSensitive: true,
    url: '',
  };
  const source = () =>
    new Asx2Source({ baseUrl: server.url, asxBaseUrl: server.url, timeoutMs: 10_000, documents });

  beforeAll(async () => {
    server = await startAnsweringServer(() => ({ status: 200, body }));
    documents = new DocumentFetcher({ timeoutMs: 10_000, baseUrls: [server.url] });
  });
  afterAll(async () => {
    await documents.close();
    await server.close();
  });

  it('takes the company from the answer, the items naming none', async () => {
    body = { data: { displayName: 'BHP GROUP LIMITED', issueType: 'CS', items: [item], symbol: 'BHP' } };
    expect(await source().latest('bhp')).toEqual([
      {
        sourceKey: '03081111',
        ticker: 'BHP',
        headline: 'Quarterly Activities Report',
        releasedAt: '2026-04-21T22:30:48Z',
        priceSensitive: true,
        documentUrl: `${server.url}/asx-research/1.0/file/2924-03081111-3A691768`,
        size: '132KB',
      },
    ]);
  });

  it('else the code it asked for', async () => {
    body = { data: { items: [item] } };
    expect((await source().latest('bhp')).map((a) => a.ticker)).toEqual(['BHP']);
  });

  it('refuses a whole-market item that names no company', async () => {
    body = { data: { items: [item] } };
    await expect(source().latestMarket()).rejects.toThrow(SourceUnavailableError);
  });
});
