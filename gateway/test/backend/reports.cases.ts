import { INestApplication } from '@nestjs/common';
import { CSRF_HEADER, asxTradingDaysBefore, formatDateTime, Stock, StockRole, sydneyDayOf } from '@irp/proto';
import { PDFDocument } from 'pdf-lib';
import request from 'supertest';
import {
  clientOf,
  connectTestDatabase,
  createStockAsAdmin,
  MailBackend,
  runId,
  seedTestUsers,
  Session,
  SharedBackend,
  signIn,
  startTestGateway,
  until,
  untilErrorEmailProjected,
} from '../gateway-harness';

const RUN = runId();
const PASSWORD = 'ReportsTest!2026';

/**
 * The reports routes through the gateway on the real services and the market-data stand-in (its own
 * process): the Market tab (numbers converted, `updated` set by the server, the stock page's
 * currentMarketData), Stock Data, the sync jobs, the Reports tab's multipart generate for admins and
 * report-runners, the public report page and its date-range form, and every refusal: signed out 401,
 * wrong role 403, bad input 400 and unknown guids 404 with errorMessage, never a 500.
 */
export function reportsCases(shared: SharedBackend) {
  describe('gateway reports routes against the real services', () => {
    let backend: MailBackend;
    let gateway: INestApplication;
    let http: ReturnType<typeof request>;
    const sessions: Record<string, Session> = {};
    let get: ReturnType<typeof clientOf>['get'];
    let post: ReturnType<typeof clientOf>['post'];
    let A: Stock;
    let P: Stock;
    let U: Stock; // a ticker the provider does not list
    // The day runPriorDay loads: the latest whose trades the provider has published (T+3, the stand-in's
    // default and the reports service's MARKET_DATA_PUBLICATION_LAG_DAYS).
    const day = asxTradingDaysBefore(sydneyDayOf(new Date()), 3)[0]!;

    const form = (fields: Record<string, string>, who?: string, path = '/api/admin/generateReport') => {
      let r = http.post(path);
      if (who) r = r.set('Cookie', sessions[who]!.cookie).set(CSRF_HEADER, sessions[who]!.csrf);
      for (const [k, v] of Object.entries(fields)) r = r.field(k, v);
      return r;
    };

    beforeAll(async () => {
      backend = shared.backend();
      ({ gateway, http } = await startTestGateway());
      ({ get, post } = clientOf(http, sessions));
      sessions.admin = await signIn(http, 'admin', 'Admin!2026');
      sessions.reports = await signIn(http, 'reports', 'Reports!2026');
      A = await createStockAsAdmin(post, { ticker: `RA${RUN}`, companyName: `Report Alpha ${RUN}` });
      P = await createStockAsAdmin(post, { ticker: `RP${RUN}`, companyName: `Report Peer ${RUN}` });
      U = await createStockAsAdmin(post, { ticker: `NOQ${RUN}`, companyName: `Unlisted ${RUN}` });
      await seedTestUsers(PASSWORD, [
        { username: 'rpt-test-client', stockRoles: { [A.id]: [StockRole.ViewConfig] } },
      ]);
      sessions.client = await signIn(http, 'rpt-test-client', PASSWORD);
      for (const s of [A, P, U])
        await until(
          async () => (await get(`/api/admin/reports?ticker=${s.combinedTicker}`, 'admin')).status,
          (status) => status === 200,
          `the reports service knowing ${s.combinedTicker}`,
          30_000,
        );
    });

    afterAll(async () => {
      await gateway?.close();
    });

    it('Market tab: saves the numbers (text converted), sets updated itself; the stock page carries currentMarketData', async () => {
      const res = await post(
        `/api/admin/saveMarketData/${A.combinedTicker}`,
        { ask: '1,234.50', bid: 1234.4, last: '', volume: '1000000', updated: '2000-01-01T00:00:00Z' },
        'admin',
      );
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ ask: 1234.5, bid: 1234.4, last: null, volume: 1_000_000 });
      expect(Date.now() - Date.parse(res.body.updated)).toBeLessThan(60_000);
      const page = await get(`/api/stock/${A.combinedTicker}`, 'admin');
      expect(page.status).toBe(200);
      expect(page.body.currentMarketData).toEqual(res.body);
      expect(page.body.unavailable).toEqual([]);
      const runner = await get(`/api/stock/${A.combinedTicker}`, 'reports');
      expect(runner.status).toBe(200);
      expect(runner.body.currentMarketData).toBeUndefined();

      const bad = await post(`/api/admin/saveMarketData/${A.combinedTicker}`, { ask: 'lots' }, 'admin');
      expect(bad.status).toBe(400);
      expect(bad.body.errorMessage).toBe('ask: ask must be a number');
      expect((await post(`/api/admin/saveMarketData/NOPE${RUN}:ASX`, { ask: 1 }, 'admin')).status).toBe(404);
      expect(
        (await post(`/api/admin/saveMarketData/${A.combinedTicker}`, { ask: 1 }, 'reports')).status,
      ).toBe(403);
      expect((await post(`/api/admin/saveMarketData/${A.combinedTicker}`, { ask: 1 })).status).toBe(401);
    });

    it("Stock Data: Update reads the provider's daily OHLCV (row count), Display lists it; the provider's refusal is a message", async () => {
      expect((await get(`/api/admin/getChartData/?id=${A.id}`, 'admin')).body).toEqual([]);
      const updated = await post('/api/admin/updateChartData/', { id: A.id }, 'admin');
      expect(updated.status).toBe(200);
      expect(updated.body).toMatchObject({ success: true, errorMessage: null });
      expect(updated.body.rowCount).toBeGreaterThan(200);
      const rows = (await get(`/api/admin/getChartData/?id=${A.id}`, 'admin')).body;
      expect(rows).toHaveLength(updated.body.rowCount);
      expect(Object.keys(rows[0]).sort()).toEqual(['close', 'date', 'high', 'low', 'open', 'volume']);
      const unlisted = await post('/api/admin/updateChartData/', { id: U.id }, 'admin');
      expect(unlisted.body).toEqual({
        success: false,
        rowCount: null,
        errorMessage: `The market-data provider does not list ${U.ticker}`,
      });
      expect((await get('/api/admin/getChartData/?id=nope', 'admin')).status).toBe(400);
      expect((await get(`/api/admin/getChartData/?id=${A.id}`, 'reports')).status).toBe(403);
      expect((await post('/api/admin/updateChartData/', { id: A.id }, 'reports')).status).toBe(403);
      expect((await get(`/api/admin/getChartData/?id=${A.id}`)).status).toBe(401);
    });

    it('syncWatchlist and runPriorDay run on demand for admins only; a re-run of the prior day skips what is loaded', async () => {
      const sync = await post('/api/admin/syncWatchlist', {}, 'admin');
      expect(sync.status).toBe(200);
      expect(sync.body.updated).toBeGreaterThanOrEqual(2);
      expect(sync.body.failed).toEqual(
        expect.arrayContaining([{ ticker: U.combinedTicker, errorMessage: expect.any(String) }]),
      );
      const first = await post('/api/admin/runPriorDay', {}, 'admin');
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ day });
      expect(first.body.loaded).toBeGreaterThanOrEqual(2);
      const again = await post('/api/admin/runPriorDay', {}, 'admin');
      expect(again.body).toMatchObject({ day, loaded: 0 });
      expect(again.body.skipped).toBeGreaterThanOrEqual(first.body.loaded);
      for (const path of ['/api/admin/syncWatchlist', '/api/admin/runPriorDay']) {
        expect((await post(path, {}, 'reports')).status).toBe(403);
        expect((await post(path, {}, 'client')).status).toBe(403);
        expect((await post(path, {})).status).toBe(401);
      }
    });

    it('Reports tab: report-runners and admins generate from the multipart form; the list has the newest first', async () => {
      const res = await form(
        {
          Ticker: A.combinedTicker,
          StartDate: day,
          EndDate: day,
          Peers: P.ticker,
          ComparativeTradingActivity: 'true',
          PriceOverlay: 'false',
        },
        'reports',
      );
      expect(res.status).toBe(200);
      expect(res.body.errorMessage).toBeNull();
      const report = res.body.report;
      expect(report).toMatchObject({
        ticker: A.combinedTicker,
        peers: [P.combinedTicker],
        startDate: day,
        endDate: day,
        // 'Allow search' unticked (the form sent no AllowSearch): the public page offers no other dates.
        allowSearch: false,
      });
      expect(report.guid).toMatch(/^[0-9a-f]{32}$/);
      expect(report.brokerActivityViewModels).toHaveLength(2);
      expect(report.brokerActivityViewModels[0].brokerShareAnalysis.brokers.length).toBeLessThanOrEqual(20);
      expect(
        report.comparativeTradingActivity.items.map((i: { meta: { ticker: string } }) => i.meta.ticker),
      ).toEqual([A.combinedTicker, P.combinedTicker]);
      const byAdmin = await form({ Ticker: A.combinedTicker, StartDate: day, EndDate: day }, 'admin');
      expect(byAdmin.status).toBe(200);
      const list = await get(`/api/admin/reports?ticker=${A.combinedTicker}`, 'reports');
      expect(list.status).toBe(200);
      expect(list.body.map((r: { guid: string }) => r.guid).slice(0, 2)).toEqual([
        byAdmin.body.report.guid,
        report.guid,
      ]);
      expect((await get(`/api/admin/reports?ticker=${A.combinedTicker}`, 'client')).status).toBe(403);
      expect((await get(`/api/admin/reports?ticker=${A.combinedTicker}`)).status).toBe(401);
    });

    it('Reports tab refusals: bad dates, unknown ticker or peer, no trades, not multipart, wrong caller', async () => {
      const refused = async (fields: Record<string, string>, status: number, message: string | RegExp) => {
        const res = await form(fields, 'admin');
        expect({ status: res.status, message: res.body.errorMessage }).toEqual({
          status,
          message: expect.stringMatching(message),
        });
      };
      await refused(
        { Ticker: A.combinedTicker, StartDate: day, EndDate: '2020-01-01' },
        400,
        `The end date 2020-01-01 is before the start date ${day}`,
      );
      await refused({ Ticker: A.combinedTicker, StartDate: 'soon' }, 400, /StartDate must be a date/);
      await refused(
        { Ticker: A.combinedTicker, StartDate: day, EndDate: day, Peers: `NOPE${RUN}` },
        400,
        `Unknown peer NOPE${RUN}`,
      );
      await refused({ Ticker: `NOPE${RUN}`, StartDate: day, EndDate: day }, 404, `Unknown ticker NOPE${RUN}`);
      await refused(
        { Ticker: U.combinedTicker, StartDate: day, EndDate: day },
        400,
        /There are no trades of/,
      );
      await refused(
        { Ticker: A.combinedTicker, StartDate: '2026-03-07', EndDate: '2026-03-08' },
        400,
        'There are no trading days between 2026-03-07 and 2026-03-08',
      );
      const json = await post('/api/admin/generateReport', { Ticker: A.combinedTicker }, 'admin');
      expect(json.status).toBe(415);
      expect((await form({ Ticker: A.combinedTicker }, 'client')).status).toBe(403);
      expect((await form({ Ticker: A.combinedTicker })).status).toBe(401);
    });

    it('public report page: read by guid without sign-in, regenerated over other dates only when the staff member ticked Allow search', async () => {
      const open = (
        await form({ Ticker: A.combinedTicker, StartDate: day, EndDate: day, AllowSearch: 'true' }, 'admin')
      ).body.report;
      expect(open.allowSearch).toBe(true);
      // Not ticked (no AllowSearch in the form) is no search: the default is off.
      const closed = (await form({ Ticker: A.combinedTicker, StartDate: day, EndDate: day }, 'admin')).body
        .report;
      expect(closed.allowSearch).toBe(false);
      expect(
        (
          await form(
            { Ticker: A.combinedTicker, StartDate: day, EndDate: day, AllowSearch: 'false' },
            'admin',
          )
        ).body.report.allowSearch,
      ).toBe(false);
      const read = await http.get(`/api/report/${open.guid}`);
      expect(read.status).toBe(200);
      expect(read.body).toEqual(open);
      const missing = await http.get(`/api/report/${'0'.repeat(32)}`);
      expect(missing.status).toBe(404);
      expect(missing.body.errorMessage).toBe('Report not found');

      const again = await http
        .post('/api/report/generateReport')
        .send({ Guid: open.guid, StartDate: day, EndDate: day });
      expect(again.status).toBe(200);
      expect(again.body.errorMessage).toBeNull();
      expect(again.body.report.guid).not.toBe(open.guid);
      expect((await http.get(`/api/report/${again.body.report.guid}`)).status).toBe(200);

      const forbidden = await http
        .post('/api/report/generateReport')
        .send({ Guid: closed.guid, StartDate: day, EndDate: day });
      expect(forbidden.status).toBe(403);
      expect(forbidden.body.errorMessage).toBe('This report does not allow searching other dates');
      const unknown = await http
        .post('/api/report/generateReport')
        .send({ Guid: 'f'.repeat(32), StartDate: day, EndDate: day });
      expect(unknown.status).toBe(404);
      const backwards = await http
        .post('/api/report/generateReport')
        .send({ Guid: open.guid, StartDate: day, EndDate: '2020-01-01' });
      expect(backwards.status).toBe(400);
      expect(backwards.body.errorMessage).toBe(`The end date 2020-01-01 is before the start date ${day}`);
      const noGuid = await http.post('/api/report/generateReport').send({ StartDate: day });
      expect(noGuid.status).toBe(400);
      expect(noGuid.body.errorMessage).toBe('Guid: Guid is required');
    });

    it('a loop of public searches is bounded: past the per-address limit 429 with Retry-After and nothing stored; the same range is the same report; past the per-report limit 429 from any address', async () => {
      const limited = await startTestGateway({
        REPORT_SEARCH_RATE_PER_ADDRESS: '3',
        REPORT_SEARCH_RATE_PER_REPORT: '5',
      });
      const db = await connectTestDatabase();
      try {
        const open = (
          await form({ Ticker: A.combinedTicker, StartDate: day, EndDate: day, AllowSearch: 'true' }, 'admin')
        ).body.report;
        const stored = async () =>
          (
            await db.query<{ n: number }>(
              `SELECT count(*)::int AS n FROM reports.reports WHERE parent_guid = $1`,
              [open.guid],
            )
          ).rows[0]!.n;
        const search = (from: string) =>
          limited.http
            .post('/api/report/generateReport')
            .set('X-Forwarded-For', from)
            .send({ Guid: open.guid, StartDate: day, EndDate: day });
        const reader = `2001:db8:5::${parseInt(RUN.slice(-4), 36).toString(16)}`;
        const answers = [];
        for (let i = 0; i < 5; i++) answers.push(await search(reader));
        expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429, 429]);
        // The same range searched three times is one report.
        expect(new Set(answers.slice(0, 3).map((a) => a.body.report.guid)).size).toBe(1);
        expect(await stored()).toBe(1);
        expect(answers[3]!.body.errorMessage).toMatch(/^Too many report searches: try again in \d+ seconds$/);
        expect(Number(answers[3]!.headers['retry-after'])).toBeGreaterThan(0);
        // Another address goes on, until the report's own limit (5 searches in all) holds every address.
        expect((await search(`${reader}:1`)).status).toBe(200);
        expect((await search(`${reader}:2`)).status).toBe(200);
        const overReport = await search(`${reader}:3`);
        expect(overReport.status).toBe(429);
        expect(overReport.body.errorMessage).toMatch(/^Too many report searches/);
        expect(await stored()).toBe(1);
      } finally {
        await limited.gateway.close();
        await db.end();
      }
    });

    it("a provider outage: runPriorDay says which stock failed, and the system settings' error email hears of it once", async () => {
      const STAFF = `errors-${RUN.toLowerCase()}@reports.example`;
      const settings = (await get('/api/admin/systemSettings', 'admin')).body as Record<string, unknown>;
      expect(
        (await post('/api/admin/systemSettings', { ...settings, errorEmail: STAFF }, 'admin')).status,
      ).toBe(200);
      await untilErrorEmailProjected(STAFF);
      const C = await createStockAsAdmin(post, { ticker: `RO${RUN}`, companyName: `Report Outage ${RUN}` });
      await until(
        async () => (await get(`/api/admin/reports?ticker=${C.combinedTicker}`, 'admin')).status,
        (status) => status === 200,
        `the reports service knowing ${C.combinedTicker}`,
        30_000,
      );
      const faults = `${backend.market.url}/standin/faults`;
      const rule = { kind: 'fail', route: 'trades', key: C.ticker, status: 503 };
      expect(
        (
          await fetch(faults, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(rule),
          })
        ).status,
      ).toBe(200);
      try {
        const res = await post('/api/admin/runPriorDay', {}, 'admin');
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ success: false, day, loaded: 0 });
        // The outage beside the unlisted stock's refusal (which is no outage: no gap, no mail).
        expect(res.body.failed).toEqual([
          { ticker: U.combinedTicker, errorMessage: `The market-data provider does not list ${U.ticker}` },
          // The provider's own words stay in the reports service's log, under the reference staff read.
          {
            ticker: C.combinedTicker,
            errorMessage: expect.stringMatching(
              /^The market-data provider answered 503 \(reference [0-9a-f]{8}\)$/,
            ),
          },
        ]);
        const mails = await until(
          async () => backend.sink.to(STAFF).filter((m) => m.subject.includes('Market data:')),
          (m) => m.length > 0,
          'the error mail about the market data',
          40_000,
        );
        expect(mails[0]!.subject).toBe(
          `IR Portal: Market data: the provider's trades of ${day} could not be loaded`,
        );
        expect(mails[0]!.text).toContain(C.combinedTicker);
        // Failing again is not mailed again.
        expect((await post('/api/admin/runPriorDay', {}, 'admin')).body.success).toBe(false);
        // The second run's gap is already remembered: it wrote no second event (in the run's own transaction,
        // so this read is final), hence no second mail; the one mail is still the only one.
        const db = await connectTestDatabase();
        try {
          const { rows } = await db.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM reports.outbox WHERE topic = 'market-data.failed'`,
          );
          expect(rows[0]!.n).toBe(1);
        } finally {
          await db.end();
        }
        expect(backend.sink.to(STAFF).filter((m) => m.subject.includes('Market data:'))).toHaveLength(1);
      } finally {
        await fetch(faults, { method: 'DELETE' });
      }
      const recovered = await post('/api/admin/runPriorDay', {}, 'admin');
      expect(recovered.body).toMatchObject({ loaded: 1 });
      expect(recovered.body.failed.map((f: { ticker: string }) => f.ticker)).toEqual([U.combinedTicker]);
    });

    it('announcement days: added ones arrive by event; what the projection missed, edits and deletes by announcements.headlines', async () => {
      const db = await connectTestDatabase();
      const days = async () =>
        (
          await db.query<{ id: string; headline: string; price_sensitive: boolean }>(
            `SELECT id, headline, price_sensitive FROM reports.announcements WHERE stock_id = $1`,
            [P.id],
          )
        ).rows;
      // A change of the stock reaches this service's projection, which has the announcement days checked.
      let touches = 0;
      const touchStock = async () =>
        expect(
          (
            await post(
              '/api/admin/stocks',
              { id: P.id, websiteUrl: `https://p${(touches += 1)}.example` },
              'admin',
            )
          ).status,
        ).toBe(200);
      const save = async (fields: Record<string, string>) => {
        const doc = await PDFDocument.create();
        doc.addPage([300, 200]).drawText('Quarterly', { x: 20, y: 100, size: 12 });
        let req = http
          .post(`/api/Announcement/save/${P.combinedTicker}`)
          .set('Cookie', sessions.admin!.cookie)
          .set(CSRF_HEADER, sessions.admin!.csrf);
        for (const [k, v] of Object.entries(fields)) req = req.field(k, v);
        const saved = await req.attach('file', Buffer.from(await doc.save()), {
          filename: 'q.pdf',
          contentType: 'application/pdf',
        });
        expect(saved.status).toBe(200);
        return saved.body.announcement as { id: string; sendGuid: string };
      };
      try {
        const added = await save({
          headline: `Quarterly Activities ${RUN}`,
          date: formatDateTime(new Date(Date.now() - 3_600_000)),
          priceSensitive: 'true',
        });
        await until(
          days,
          (rows) => rows.some((r) => r.id === added.id),
          'announcement.detected in the projection',
          30_000,
        );

        // Missed (as before this service first ran), then edited: no event says either.
        await db.query(`DELETE FROM reports.announcements WHERE stock_id = $1`, [P.id]);
        await save({
          sendGuid: added.sendGuid,
          headline: `Quarterly Activities ${RUN} (amended)`,
          date: formatDateTime(new Date(Date.now() - 3_600_000)),
          priceSensitive: 'true',
        });
        await touchStock();
        const restored = await until(
          days,
          (rows) => rows.length === 1,
          'the announcement days read from the announcements service',
          30_000,
        );
        expect(restored).toEqual([
          { id: added.id, headline: `Quarterly Activities ${RUN} (amended)`, price_sensitive: true },
        ]);

        // Deleted there: gone here at the next check.
        expect(
          (await post(`/api/Announcement/delete/${P.combinedTicker}`, { sendGuid: added.sendGuid }, 'admin'))
            .status,
        ).toBe(200);
        await touchStock();
        await until(
          days,
          (rows) => rows.length === 0,
          'the deleted announcement gone from the projection',
          30_000,
        );
      } finally {
        await db.end();
      }
    });
  });
}
