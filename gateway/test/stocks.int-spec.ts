import { INestApplication } from '@nestjs/common';
import { StockRole, Topics } from '@irp/proto';
import {
  createTestRequester,
  dropSchema,
  runServiceSeed,
  ServiceProcess,
  startServiceProcess,
} from '@irp/platform/testing';
import { seedTestUsers, startTestGateway } from './gateway-harness';
import { adminStockListCases } from './stocks/admin-stock-list.cases';
import { adminStockPageCases } from './stocks/admin-stock-page.cases';
import { adminStockSaveCases } from './stocks/admin-stock-save.cases';
import { apiKeyAndExchangesCases } from './stocks/api-key-and-exchanges.cases';
import { archiveCases } from './stocks/archive.cases';
import { changeTickerCases } from './stocks/change-ticker.cases';
import { clientDashboardCases } from './stocks/client-dashboard.cases';
import { clientStockReadCases } from './stocks/client-stock-read.cases';
import { clientStockSaveCases } from './stocks/client-stock-save.cases';
import { demoClientCases } from './stocks/demo-client.cases';
import { notesHistoryReferersCases } from './stocks/notes-history-referers.cases';
import { openApiCases } from './stocks/openapi.cases';
import { routeRefusalCases } from './stocks/route-refusals.cases';
import { PASSWORD, RATE_LIMIT, StocksRun, T } from './stocks/stocks-harness';
import { widgetStockCases } from './stocks/widget-stock.cases';

/**
 * Contract tests of the stocks routes (docs/api/stocks.md): the gateway in front of the real users and
 * stocks services on the real broker and database. Every route: signed out 401, wrong role 403, bad
 * input 400, and its happy path and shape. Stocks are created through the API with tickers unique to
 * this run; per-stock roles are given to test users of our own through the users service's seed. The
 * services run as processes of their own: this test reaches them through Kafka and HTTP only.
 *
 * This file starts them once; each use case's tests are a module of stocks/, named by the use case,
 * registered below in order with the run they share (stocks/stocks-harness.ts).
 */

describe('gateway stocks routes against the real users and stocks services over Kafka', () => {
  let users: ServiceProcess;
  let stocks: ServiceProcess;
  let gateway: INestApplication;
  const t = new StocksRun();

  beforeAll(async () => {
    // A fresh stocks schema, so the stocks seed can create the demo stocks with their fixed ids (another
    // suite may have left a VOD:LSE of its own, which the idempotent seed would keep).
    await dropSchema('stocks');
    [users, stocks] = await Promise.all([startServiceProcess('users'), startServiceProcess('stocks')]);
    await Promise.all([runServiceSeed('users'), runServiceSeed('stocks')]);
    t.otherGateway = await createTestRequester([Topics.StocksChangeTicker], 8000);
    ({ gateway, http: t.http } = await startTestGateway({
      WIDGET_RATE_LIMIT: String(RATE_LIMIT),
      WIDGET_RATE_WINDOW_MS: '60000',
      // Long enough that a test reading through a stale combinedTicker -> id answer is not racing the TTL.
      STOCK_DIRECTORY_CACHE_MS: '30000',
      // The announcements service is not started here: the admin stock page gives up on it quickly.
      STOCK_PAGE_CONTRIBUTOR_TIMEOUT_MS: '200',
      // Nor is the email-marketing service: the dashboards' Email marketing column stays null, quickly.
      DASHBOARD_CONTRIBUTOR_TIMEOUT_MS: '300',
    }));

    const { sessions } = t;
    sessions.admin = await t.signIn('admin', 'Admin!2026');
    sessions.reports = await t.signIn('reports', 'Reports!2026');
    sessions.useradmin = await t.signIn('useradmin', 'UserAdmin!2026');
    sessions.client = await t.signIn('client', 'Client!2026');

    t.A = await t.createStock({
      ticker: T('a'),
      companyName: 'Alpha Resources',
      websiteUrl: 'alpha.example.com',
      apiKey: await t.newApiKey(),
      confirmationEmail: 'ir@alpha.example.com',
      accountingReference: 'ACC-ALPHA',
    });
    t.B = await t.createStock({ ticker: T('B'), companyName: 'Beta Minerals', apiKey: await t.newApiKey() });
    t.C = await t.createStock({ ticker: T('C'), companyName: 'Gamma Energy', apiKey: await t.newApiKey() });
    t.D = await t.createStock({ ticker: T('D'), companyName: 'Delta Archived', apiKey: await t.newApiKey() });

    // Per-stock roles for users of our own (the demo client's stocks come from the stocks seed).
    await seedTestUsers(PASSWORD, [
      {
        username: 'stocks-test-client',
        stockRoles: {
          [t.A.id]: [StockRole.ViewConfig, StockRole.ReplyToComment, StockRole.EditAnnouncements],
          [t.B.id]: [StockRole.ViewConfig],
          [t.D.id]: [StockRole.ViewConfig],
        },
      },
      { username: 'stocks-test-viewer', stockRoles: { [t.A.id]: [StockRole.EditAnnouncements] } },
    ]);
    sessions.tclient = await t.signIn('stocks-test-client', PASSWORD);
    sessions.tviewer = await t.signIn('stocks-test-viewer', PASSWORD);

    const archived = await t.post(
      '/api/admin/archiveStock',
      { exchange: 'ASX', ticker: t.D.ticker, archived: true },
      'admin',
    );
    expect(archived.status).toBe(200);
  }, 180_000);

  afterAll(async () => {
    await gateway?.close();
    await t.otherGateway?.close();
    await Promise.all([stocks?.stop(), users?.stop()]);
    // Leave no test stocks behind: a stack started on this database next (the browser tests) seeds the
    // demo stocks afresh, with their fixed ids.
    await dropSchema('stocks');
  });

  routeRefusalCases(t);
  adminStockListCases(t);
  adminStockSaveCases(t);
  adminStockPageCases(t);
  changeTickerCases(t);
  archiveCases(t);
  apiKeyAndExchangesCases(t);
  clientStockReadCases(t);
  clientStockSaveCases(t);
  clientDashboardCases(t);
  demoClientCases(t);
  notesHistoryReferersCases(t);
  widgetStockCases(t);
  openApiCases(t);
});
