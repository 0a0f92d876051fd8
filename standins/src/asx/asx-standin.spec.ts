import { DateTime } from 'luxon';
import { PDFDocument } from 'pdf-lib';
import { mockAnnouncementsOfYear } from '@irp/announcements/dist/sources/mock.source';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sourceKeyOfDocumentKey } from '@irp/announcements/dist/sources/asx2.source';
import { AsxStandIn, publishedIdFloor, startAsxStandIn } from './asx-standin';

const NOW = new Date('2025-06-30T02:00:00Z');

interface AsxPage {
  data: Array<{
    id: string;
    document_release_date: string;
    header: string;
    url: string;
    market_sensitive: boolean;
  }>;
  paging_next_url: string | null;
}
interface MarkitPage {
  data: {
    items: Array<{
      symbol: string;
      date: string;
      documentKey: string;
      headline: string;
      isPriceSensitive: boolean;
    }>;
  };
}

const post = (url: string, body: unknown) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('ASX stand-in', () => {
  let standIn: AsxStandIn;
  const get = async <T>(path: string): Promise<{ status: number; body: T }> => {
    const response = await fetch(`${standIn.url}${path}`);
    return { status: response.status, body: (await response.json()) as T };
  };

  beforeAll(async () => {
    standIn = await startAsxStandIn({ seedTickers: ['BHP', 'CBA'], seedYears: [2024, 2025], now: () => NOW });
  });
  afterEach(() => standIn.setMode('direct'));
  afterAll(() => standIn.close());

  it('seeds the mock generator’s history deterministically and reports its health', async () => {
    const expected = [2025, 2024].flatMap((y) => mockAnnouncementsOfYear('BHP', y, NOW));
    expect(standIn.announcements('BHP').map((a) => a.headline)).toEqual(expected.map((a) => a.headline));
    const again = await startAsxStandIn({
      seedTickers: ['BHP', 'CBA'],
      seedYears: [2024, 2025],
      now: () => NOW,
    });
    expect(again.announcements('BHP')).toEqual(
      standIn.announcements('BHP').map((a) => ({
        ...a,
        documentUrl: a.documentUrl.replace(standIn.url, again.url),
        fileUrl: a.fileUrl.replace(standIn.url, again.url),
        pdfUrl: a.pdfUrl.replace(standIn.url, again.url),
      })),
    );
    await again.close();
    const health = await get<{ status: string; tickers: number; mode: string }>('/standin/health');
    expect(health).toEqual({
      status: 200,
      body: expect.objectContaining({ status: 'ok', tickers: 2, mode: 'direct' }),
    });
  });

  it('pages the per-company feed with paging_next_url, in ASX time format', async () => {
    const first = await get<AsxPage>('/asx/1/company/bhp/announcements?count=20&market_sensitive=false');
    expect(first.status).toBe(200);
    expect(first.body.data).toHaveLength(20);
    expect(first.body.data[0].document_release_date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+1[01]00$/);
    expect(first.body.paging_next_url).toMatch(/^\/asx\/1\/company\/BHP\/announcements\?/);
    const second = await get<AsxPage>(first.body.paging_next_url ?? '');
    const ids = [...first.body.data, ...second.body.data].map((a) => a.id);
    expect(ids).toEqual(
      standIn
        .announcements('BHP')
        .slice(0, 40)
        .map((a) => a.id),
    );

    const sensitive = await get<AsxPage>('/asx/1/company/BHP/announcements?count=5&market_sensitive=true');
    expect(sensitive.body.data.every((a) => a.market_sensitive)).toBe(true);

    let url: string | null = '/asx/1/company/CBA/announcements?count=20&market_sensitive=false';
    let pages = 0;
    while (url) {
      url = (await get<AsxPage>(url)).body.paging_next_url;
      pages++;
    }
    expect(pages).toBe(Math.ceil(standIn.announcements('CBA').length / 20));
  });

  it('answers an unknown ticker with 404 and no body on both per-company routes', async () => {
    for (const path of [
      '/asx/1/company/NOPE/announcements',
      '/asx-research/1.0/companies/nope/announcements',
    ]) {
      const response = await fetch(`${standIn.url}${path}`);
      expect(response.status).toBe(404);
      expect(await response.text()).toBe('');
    }
  });

  it('serves the Markit market feed newest first by page, and the per-company variant', async () => {
    const page0 = await get<MarkitPage>(
      '/asx-research/1.0/markets/announcements?page=0&itemsPerPage=10&priceSensitiveOnly=false',
    );
    const page1 = await get<MarkitPage>(
      '/asx-research/1.0/markets/announcements?page=1&itemsPerPage=10&priceSensitiveOnly=false',
    );
    const items = [...page0.body.data.items, ...page1.body.data.items];
    expect(items).toHaveLength(20);
    expect(items.map((i) => i.documentKey)).toEqual(
      standIn
        .announcements()
        .slice(0, 20)
        .map((a) => a.documentKey),
    );
    expect(new Set(items.map((i) => i.symbol))).toEqual(new Set(['BHP', 'CBA']));
    const sensitive = await get<MarkitPage>(
      '/asx-research/1.0/markets/announcements?page=0&itemsPerPage=100&priceSensitiveOnly=true',
    );
    expect(sensitive.body.data.items.length).toBeGreaterThan(0);
    expect(sensitive.body.data.items.every((i) => i.isPriceSensitive)).toBe(true);

    // The per-company variant names the company once, on `data`, as the feed was recorded doing.
    const company = await get<MarkitPage & { data: { symbol: string } }>(
      '/asx-research/1.0/companies/cba/announcements',
    );
    expect(company.body.data.symbol).toBe('CBA');
    expect(company.body.data.items.every((i) => !('symbol' in i))).toBe(true);
    expect(company.body.data.items.map((i) => i.documentKey)).toEqual(
      standIn
        .announcements('CBA')
        .slice(0, 5)
        .map((a) => a.documentKey),
    );
  });

  it('stamps when a feed first lists an announcement, and keeps that first time', async () => {
    const published = standIn.publish({ ticker: 'CBA', headline: 'First served', priceSensitive: true });
    const ofIt = () => standIn.announcements('CBA').find((a) => a.id === published.id);
    expect(published.firstServedAt).toBeUndefined();
    expect(ofIt()?.firstServedAt).toBeUndefined();
    const before = Date.now();
    await get<MarkitPage>('/asx-research/1.0/markets/announcements?page=0&itemsPerPage=5');
    const first = ofIt()?.firstServedAt;
    expect(Date.parse(first ?? '')).toBeGreaterThanOrEqual(before);
    expect(Date.parse(first ?? '')).toBeLessThanOrEqual(Date.now());
    await get<AsxPage>('/asx/1/company/CBA/announcements?count=5&market_sensitive=false');
    expect(ofIt()?.firstServedAt).toBe(first);
    // The per-company feed stamps what it lists too.
    const other = standIn.publish({ ticker: 'BHP', headline: 'Served per company' });
    await get<AsxPage>('/asx/1/company/BHP/announcements?count=5&market_sensitive=false');
    expect(standIn.announcements('BHP').find((a) => a.id === other.id)?.firstServedAt).toBeDefined();
  });

  it('publishes over HTTP, lists what it holds, and refuses a bad announcement', async () => {
    const response = await post(`${standIn.url}/standin/announcements`, {
      ticker: 'pls',
      headline: 'Quarterly Activities Report',
      priceSensitive: true,
      pages: 3,
    });
    expect(response.status).toBe(201);
    const item = (await response.json()) as {
      id: string;
      ticker: string;
      releasedAt: string;
      documentUrl: string;
    };
    expect(item).toMatchObject({ ticker: 'PLS', priceSensitive: true, pages: 3 });
    // Released "now", by the stand-in's clock.
    expect(item.releasedAt).toBe(NOW.toISOString());
    const listed = await get<{ items: Array<{ id: string }> }>('/standin/announcements?ticker=PLS');
    expect(listed.body.items.map((a) => a.id)).toEqual([item.id]);
    expect(
      (await get<MarkitPage>('/asx-research/1.0/markets/announcements?page=0&itemsPerPage=1')).body.data
        .items[0],
    ).toMatchObject({
      symbol: 'PLS',
    });

    const pdf = Buffer.from(await (await fetch(item.documentUrl)).arrayBuffer());
    expect((await PDFDocument.load(pdf)).getPageCount()).toBe(3);

    const bad = await post(`${standIn.url}/standin/announcements`, { ticker: 'BHP', headline: '' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toMatch(/headline/);
    const notJson = await fetch(`${standIn.url}/standin/announcements`, { method: 'POST', body: '{' });
    expect(notJson.status).toBe(400);
  });

  it('numbers what a restarted stand-in publishes after what its earlier runs published, in both feeds', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'asx-standin-ids-'));
    const idFile = join(dir, 'last-id');
    const options = { seedTickers: ['WES'], seedYears: [2025], now: () => NOW, idFile };
    let first: AsxStandIn | undefined;
    let second: AsxStandIn | undefined;
    try {
      first = await startAsxStandIn(options);
      const seededIds = first.announcements('WES').map((a) => a.id);
      const before = [1, 2, 3].map((n) => first!.publish({ ticker: 'WES', headline: `Update ${n}` }));
      expect(new Set(before.map((a) => a.id)).size).toBe(3);
      for (const a of before) {
        expect(a.id).toMatch(/^\d{8}$/);
        expect(seededIds).not.toContain(a.id);
        expect(sourceKeyOfDocumentKey(a.documentKey)).toBe(a.id);
      }
      expect(readFileSync(idFile, 'utf8').trim()).toBe(before[2].id);
      await first.close();
      first = undefined;

      // Restarted at once, the same history seeded: the history keeps its ids, a new announcement does not
      // take one an earlier run gave (the poller stores by that key and would take it for a stored one).
      second = await startAsxStandIn(options);
      expect(
        second
          .announcements('WES')
          .filter((a) => !/^Update/.test(a.headline))
          .map((a) => a.id),
      ).toEqual(seededIds);
      const after = second.publish({ ticker: 'WES', headline: 'Update 1' });
      expect(Number(after.id)).toBeGreaterThan(Number(before[2].id));
      const feed = (await (
        await fetch(`${second.url}/asx/1/company/WES/announcements?count=5`)
      ).json()) as AsxPage;
      expect(feed.data[0]).toMatchObject({ id: after.id, header: 'Update 1' });
      const markit = (await (
        await fetch(`${second.url}/asx-research/1.0/markets/announcements?page=0&itemsPerPage=1`)
      ).json()) as MarkitPage;
      expect(sourceKeyOfDocumentKey(markit.data.items[0].documentKey)).toBe(after.id);
      expect(before.map((a) => a.documentKey)).not.toContain(markit.data.items[0].documentKey);
      await second.close();
      second = undefined;

      // What the id file holds is where the next run goes on (a restart in another process).
      writeFileSync(idFile, '90000000\n');
      second = await startAsxStandIn(options);
      expect(second.publish({ ticker: 'WES', headline: 'Update 2' }).id).toBe('90000001');
    } finally {
      await first?.close();
      await second?.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('takes published ids from a clock that only grows, above the seeded ids', () => {
    const floor = publishedIdFloor(Date.parse('2026-11-25T00:00:00Z'));
    expect(String(floor)).toMatch(/^\d{8}$/);
    expect(floor).toBeGreaterThan(3_000_000);
    expect(publishedIdFloor(Date.parse('2026-11-25T00:00:01Z'))).toBe(floor + 1);
    expect(publishedIdFloor(Date.parse('2025-01-01T00:00:00Z'))).toBeGreaterThan(2_999_999);
  });

  it('publishes in the past into its place in the history', async () => {
    const old = standIn.publish({
      ticker: 'BHP',
      headline: 'Change of Registered Address',
      releasedAt: '2024-03-05T00:00:00Z',
    });
    const held = standIn.announcements('BHP');
    const index = held.findIndex((a) => a.id === old.id);
    expect(Date.parse(held[index - 1].releasedAt)).toBeGreaterThan(Date.parse(old.releasedAt));
    expect(Date.parse(held[index + 1].releasedAt)).toBeLessThan(Date.parse(old.releasedAt));
  });

  it('answers documents with the terms page in terms mode, set over HTTP', async () => {
    const [item] = standIn.announcements('CBA');
    expect((await post(`${standIn.url}/standin/mode`, { mode: 'terms' })).status).toBe(200);
    const page = await (await fetch(item.fileUrl)).text();
    const value = /<input name="pdfURL" value="([^"]+)" type="hidden">/.exec(page)?.[1];
    expect(value).toBe(new URL(item.pdfUrl).pathname);
    const pdf = await fetch(`${standIn.url}${value}`);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 4)
        .toString(),
    ).toBe('%PDF');
    expect((await post(`${standIn.url}/standin/mode`, { mode: 'sideways' })).status).toBe(400);
  });

  it('fails the next feed requests on demand, over HTTP, then recovers', async () => {
    expect((await post(`${standIn.url}/standin/fail`, { count: 2, status: 502 })).status).toBe(200);
    expect((await get('/asx/1/company/BHP/announcements')).status).toBe(502);
    expect((await get('/asx-research/1.0/markets/announcements')).status).toBe(502);
    expect((await get('/asx/1/company/BHP/announcements')).status).toBe(200);
  });

  it("holds one ticker's history pages until released; its newest page and other tickers still answer", async () => {
    expect((await post(`${standIn.url}/standin/hold`, { ticker: 'bhp', on: true })).status).toBe(200);
    const first = await get<{ paging_next_url: string }>('/asx/1/company/BHP/announcements?count=5');
    expect(first.status).toBe(200);
    expect(first.body.paging_next_url).toContain('before_id=');
    let answered = false;
    const heldRequest = get(first.body.paging_next_url.replace(/^https?:\/\/[^/]+/, '')).then(
      (r) => ((answered = true), r),
    );
    expect((await get('/asx/1/company/CBA/announcements')).status).toBe(200);
    await new Promise((r) => setTimeout(r, 300));
    expect(answered).toBe(false);
    expect((await post(`${standIn.url}/standin/hold`, { ticker: 'BHP', on: false })).status).toBe(200);
    expect((await heldRequest).status).toBe(200);
    expect((await post(`${standIn.url}/standin/hold`, { ticker: '', on: true })).status).toBe(400);
  });

  it('holds 2,000 tickers and serves the market feed from them quickly', async () => {
    const tickers = Array.from(
      { length: 2000 },
      (_, i) => `X${i.toString(36).toUpperCase().padStart(3, '0')}`,
    );
    const started = Date.now();
    const big = await startAsxStandIn({ seedTickers: tickers, seedYears: [2024], now: () => NOW });
    const seededIn = Date.now() - started;
    try {
      const health = (await (await fetch(`${big.url}/standin/health`)).json()) as {
        tickers: number;
        announcements: number;
      };
      expect(health.tickers).toBe(2000);
      expect(health.announcements).toBeGreaterThan(2000 * 20 - 1);
      const t = Date.now();
      const page = (await (
        await fetch(`${big.url}/asx-research/1.0/markets/announcements?page=0&itemsPerPage=100`)
      ).json()) as MarkitPage;
      expect(page.data.items).toHaveLength(100);
      const times = page.data.items.map((i) => Date.parse(i.date));
      expect(times).toEqual([...times].sort((a, b) => b - a));
      expect(DateTime.fromMillis(times[0], { zone: 'Australia/Sydney' }).year).toBe(2024);
      // Loose bounds (a busy CI machine is slow): they catch a feed that scans every ticker, not a slow box.
      expect(Date.now() - t).toBeLessThan(2000);
      expect(seededIn).toBeLessThan(60_000);
    } finally {
      await big.close();
    }
  }, 120_000);
});
