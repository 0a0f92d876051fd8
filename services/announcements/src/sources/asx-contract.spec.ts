import { join } from 'node:path';
import {
  AnsweringServer,
  startAnsweringServer,
  useVendorContract,
  VendorContract,
  VENDOR_CONTRACT_SETUP_MS,
} from '@irp/platform/testing';
import { startAsxStandIn } from '@irp/standins/asx';
import { AsxSource } from './asx.source';
import { Asx2Source } from './asx2.source';
import { DocumentFetcher } from './document-fetcher';

/**
 * Neither the ASX nor Markit Digital publishes a description of these feeds: this one is written from public
 * recordings of their replies and public clients of them, each field traced (vendor-descriptions/asx).
 */
const DESCRIPTION = join(__dirname, '../../../../vendor-descriptions/asx/asx-feeds.openapi.yaml');
/** Every operation the `asx` and `asx2` services call (the file route is the documents' link). */
const OPERATIONS = [
  'getCompanyAnnouncements',
  'getMarketAnnouncements',
  'getMarkitCompanyAnnouncements',
  'getAnnouncementFile',
];
const NOW = new Date('2025-06-30T02:00:00Z');

const ASX_COMPANY = /^\/asx\/1\/company\/[^/]+\/announcements$/;
const MARKET = /^\/asx-research\/1\.0\/markets\/announcements$/;
const MARKIT_COMPANY = /^\/asx-research\/1\.0\/companies\/[^/]+\/announcements$/;
const FILE = /^\/asx-research\/1\.0\/file\/[^/]+$/;

type Item = Record<string, unknown>;
const queryString = (query: Record<string, string | string[]> = {}) =>
  new URLSearchParams(
    Object.entries(query).flatMap(([k, v]) => [v].flat().map((one): [string, string] => [k, one])),
  ).toString();

/**
 * The `asx` and `asx2` adapters and the ASX stand-in against the feeds' sourced description (ADR 0014): every
 * call goes through a recording proxy to the stand-in; each request must be one the feeds were seen to take,
 * each reply one they were recorded giving.
 */
describe('the ASX adapters and stand-in against the ASX and Markit Digital feeds', () => {
  let documents: DocumentFetcher;
  // Declared before the rig's, so the fetcher's browser closes before the proxy and stand-in it used.
  afterAll(async () => {
    await documents?.close();
  });
  const rig = useVendorContract({
    load: () => VendorContract.load(DESCRIPTION, { operations: OPERATIONS }),
    startStandIn: () =>
      startAsxStandIn({ seedTickers: ['BHP', 'CBA'], seedYears: [2024, 2025], now: () => NOW }),
  });
  const { exchangesOf, problemsOf } = rig;

  beforeAll(async () => {
    documents = new DocumentFetcher({ timeoutMs: 10_000, baseUrls: [rig.proxy.url] });
    const asx = new AsxSource({ baseUrl: rig.proxy.url, timeoutMs: 10_000, documents });
    const asx2 = new Asx2Source({
      baseUrl: rig.proxy.url,
      asxBaseUrl: rig.proxy.url,
      timeoutMs: 10_000,
      documents,
      itemsPerPage: 50,
      maxPages: 2,
    });

    // Every call the adapters make: the latest page, a year's walk back through paging_next_url, the whole
    // market by page, one company's latest from Markit and its document; then an unknown code on both feeds.
    expect(await asx.latest('bhp')).toHaveLength(20);
    expect((await asx.announcementsOfYear('CBA', 2024)).length).toBeGreaterThan(0);
    expect((await asx2.latestMarket()).length).toBeGreaterThan(50);
    const [latest] = await asx2.latest('cba');
    expect(latest).toMatchObject({ ticker: 'CBA' });
    expect((await asx2.download(latest!.documentUrl)).bytes.subarray(0, 4).toString()).toBe('%PDF');
    await expect(asx.latest('NOPE')).resolves.toEqual([]);
    await expect(asx2.latest('NOPE')).resolves.toEqual([]);
  }, VENDOR_CONTRACT_SETUP_MS);

  /** The ASX per-company requests that followed a reply's paging_next_url, and the cursors they carry. */
  const followedPages = () => {
    const exchanges = exchangesOf('GET', ASX_COMPANY);
    const offered = new Set(
      exchanges.map(
        (e) => (e.response.body as { paging_next_url?: string | null } | undefined)?.paging_next_url,
      ),
    );
    return exchanges.filter((e) => offered.has(`${e.request.path}?${queryString(e.request.query)}`));
  };

  it.each([
    ['getCompanyAnnouncements', ASX_COMPANY],
    ['getMarketAnnouncements', MARKET],
    ['getMarkitCompanyAnnouncements', MARKIT_COMPANY],
    ['getAnnouncementFile', FILE],
  ])('%s: each request the adapter sent and each reply the stand-in gave is as described', (id, path) => {
    const followed = new Set(followedPages());
    const exchanges = exchangesOf('GET', path);
    expect(exchanges.length).toBeGreaterThan(0);
    for (const exchange of exchanges) {
      // A page the adapter reached by following paging_next_url carries the feed's own cursor, whose form no
      // source records: that URL is the feed's, not the adapter's, so only what is described is checked.
      const query = { ...exchange.request.query };
      if (followed.has(exchange)) delete query.before_id;
      expect(problemsOf({ ...exchange, request: { ...exchange.request, query } })).toEqual({
        operationId: id,
        problems: [],
      });
    }
  });

  it('walks back by following each paging_next_url as given, and asks the first page as the clients do', () => {
    const followed = followedPages();
    expect(followed.length).toBeGreaterThan(0);
    for (const exchange of exchangesOf('GET', ASX_COMPANY).filter((e) => !followed.includes(e)))
      expect(exchange.request.query).toEqual({ count: '20', market_sensitive: 'false' });
  });

  it('an unknown code is 404 with no body on both per-company feeds, as no recording shows one', () => {
    const refused = rig.proxy.exchanges.filter((e) => e.response.status >= 400);
    expect(refused.map((e) => [e.request.path, e.response.status])).toEqual([
      ['/asx/1/company/NOPE/announcements', 404],
      ['/asx-research/1.0/companies/nope/announcements', 404],
    ]);
    for (const exchange of refused) {
      expect(exchange.response.bytes).toHaveLength(0);
      expect(problemsOf(exchange).problems).toEqual([]);
    }
  });

  describe('shown to fail on a deliberate mismatch', () => {
    const { firstReply, firstRequest } = rig;

    it('an ASX reply with a field renamed (header -> title)', () => {
      const body = firstReply(ASX_COMPANY);
      const [item] = body.data as Item[];
      item!.title = item!.header;
      delete item!.header;
      expect(rig.contract.validateResponse('getCompanyAnnouncements', { status: 200, body })).toEqual(
        expect.arrayContaining([
          "getCompanyAnnouncements 200: /data/0 must have required property 'header'",
          'getCompanyAnnouncements 200: /data/0 must NOT have additional properties (title)',
        ]),
      );
    });

    it('an ASX reply with a field no recording shows (issuer_code, as the stand-in used to send)', () => {
      const body = firstReply(ASX_COMPANY);
      (body.data as Item[])[0]!.issuer_code = 'BHP';
      expect(rig.contract.validateResponse('getCompanyAnnouncements', { status: 200, body })).toEqual([
        'getCompanyAnnouncements 200: /data/0 must NOT have additional properties (issuer_code)',
      ]);
    });

    it('an ASX request with a query parameter no client sends (pageSize)', () => {
      const request = firstRequest(ASX_COMPANY);
      request.query.pageSize = '20';
      expect(rig.contract.validateRequest(request).problems).toEqual([
        'getCompanyAnnouncements: /query must NOT have additional properties (pageSize)',
      ]);
    });

    it('a Markit per-company reply with a field renamed (documentKey -> docKey)', () => {
      const body = firstReply(MARKIT_COMPANY);
      const [item] = (body.data as { items: Item[] }).items;
      item!.docKey = item!.documentKey;
      delete item!.documentKey;
      expect(rig.contract.validateResponse('getMarkitCompanyAnnouncements', { status: 200, body })).toEqual(
        expect.arrayContaining([
          "getMarkitCompanyAnnouncements 200: /data/items/0 must have required property 'documentKey'",
          'getMarkitCompanyAnnouncements 200: /data/items/0 must NOT have additional properties (docKey)',
        ]),
      );
    });

    it('a Markit per-company item naming its company, as the stand-in used to (symbol)', () => {
      const body = firstReply(MARKIT_COMPANY);
      (body.data as { items: Item[] }).items[0]!.symbol = 'CBA';
      expect(rig.contract.validateResponse('getMarkitCompanyAnnouncements', { status: 200, body })).toEqual([
        'getMarkitCompanyAnnouncements 200: /data/items/0 must NOT have additional properties (symbol)',
      ]);
    });

    it('a whole-market item with its types as one string, as the stand-in used to (announcementType)', () => {
      const body = firstReply(MARKET);
      const [item] = (body.data as { items: Item[] }).items;
      item!.announcementType = (item!.announcementTypes as string[])[0];
      delete item!.announcementTypes;
      expect(rig.contract.validateResponse('getMarketAnnouncements', { status: 200, body })).toEqual([
        'getMarketAnnouncements 200: /data/items/0 must NOT have additional properties (announcementType)',
      ]);
    });

    it('a whole-market request with a query parameter the feed is not seen to take (count)', () => {
      const request = firstRequest(MARKET);
      request.query.count = request.query.itemsPerPage as string;
      delete request.query.itemsPerPage;
      expect(rig.contract.validateRequest(request).problems).toEqual([
        'getMarketAnnouncements: /query must NOT have additional properties (count)',
      ]);
    });
  });

  /** The adapters read the recorded replies the description carries as examples, served as they are. */
  describe('the adapters read the recorded replies', () => {
    let server: AnsweringServer;
    let fromExamples: { asx: AsxSource; asx2: Asx2Source };
    const example = (operationId: string) =>
      rig.contract.examples(operationId).responses.find((e) => e.status === 200)!.value;

    beforeAll(async () => {
      server = await startAnsweringServer(({ path }) => {
        if (ASX_COMPANY.test(path) && path.includes('/NHC/'))
          return { status: 200, body: example('getCompanyAnnouncements') };
        if (MARKIT_COMPANY.test(path) && path.includes('/bhp/'))
          return { status: 200, body: example('getMarkitCompanyAnnouncements') };
        return { status: 404 };
      });
      fromExamples = {
        asx: new AsxSource({ baseUrl: server.url, timeoutMs: 10_000, documents }),
        asx2: new Asx2Source({ baseUrl: server.url, asxBaseUrl: server.url, timeoutMs: 10_000, documents }),
      };
    });
    afterAll(() => server?.close());

    it('the ASX per-company item recorded for NHC', async () => {
      expect(await fromExamples.asx.latest('NHC')).toEqual([
        {
          sourceKey: '02187984',
          ticker: 'NHC',
          headline: 'Colton Project Update',
          releasedAt: '2019-12-20T13:43:43+11:00',
          priceSensitive: true,
          documentUrl: 'http://www.asx.com.au/asxpdf/20191220/pdf/44cs89300clts7.pdf',
          numberOfPages: 1,
          size: '224.2KB',
        },
      ]);
    });

    it('the Markit per-company reply recorded for BHP: its items take the company on data', async () => {
      const read = await fromExamples.asx2.latest('BHP');
      expect(read).toEqual([
        {
          sourceKey: '03081111',
          ticker: 'BHP',
          headline: 'Quarterly Activities Report',
          releasedAt: '2026-04-21T22:30:48Z',
          priceSensitive: true,
          documentUrl: `${server.url}/asx-research/1.0/file/2924-03081111-3A691768`,
          size: '132KB',
        },
        {
          sourceKey: '03089593',
          ticker: 'BHP',
          headline: 'BHP Board Update',
          releasedAt: '2026-05-12T23:38:53Z',
          priceSensitive: false,
          documentUrl: `${server.url}/asx-research/1.0/file/2924-03089593-3A693216`,
          size: '99KB',
        },
      ]);
      // Each document link is the described file route.
      for (const { documentUrl } of read)
        expect(rig.contract.validateRequest({ method: 'GET', path: new URL(documentUrl).pathname })).toEqual({
          operationId: 'getAnnouncementFile',
          problems: [],
        });
    });

    it('an unknown code (404, no body) is no announcements on both feeds', async () => {
      await expect(fromExamples.asx.latest('NOPE')).resolves.toEqual([]);
      await expect(fromExamples.asx2.latest('NOPE')).resolves.toEqual([]);
    });
  });
});
