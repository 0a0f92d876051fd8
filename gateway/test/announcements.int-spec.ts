import { rmSync } from 'node:fs';
import { INestApplication } from '@nestjs/common';
import { StockRole } from '@irp/proto';
import { dropSchema, runServiceSeed, ServiceProcess, startServiceProcess } from '@irp/platform/testing';
import { confirmationCases } from './announcements/confirmation.cases';
import { deleteCases } from './announcements/delete.cases';
import { fileToolsCases } from './announcements/file-tools.cases';
import { listCases } from './announcements/list.cases';
import { openApiCases } from './announcements/openapi.cases';
import { reconcileCases } from './announcements/reconcile.cases';
import { resyncCases } from './announcements/resync.cases';
import { routeRefusalCases } from './announcements/route-refusals.cases';
import { saveAndPdfCases } from './announcements/save-and-pdf.cases';
import { sendCases } from './announcements/send.cases';
import { serviceDownCases } from './announcements/service-down.cases';
import { stockPageCases } from './announcements/stock-page.cases';
import { systemSettingsCases } from './announcements/system-settings.cases';
import { widgetCases } from './announcements/widget.cases';
import {
  AnnouncementsRun,
  DATE,
  makePdf,
  PASSWORD,
  STOCK_PAGE_TIMEOUT_MS,
  T,
} from './announcements/announcements-harness';
import { seedTestUsers, startTestGateway, until } from './gateway-harness';

/**
 * Contract tests of the announcement routes (docs/api/announcements.md): the gateway in front of the real
 * users, stocks and announcements services, each its own process, on the real broker and database. Every
 * route: signed out 401, the wrong role 403 (a report-runner, a client without the role on the stock, a
 * client of another stock), bad input 400 with nothing changed, and its happy path and shape. Stocks are
 * made through the API with tickers unique to this run; per-stock roles go to test users of our own.
 *
 * This file starts them once; each use case's tests are a module of announcements/, named by the use
 * case, registered below in order with the run they share (announcements/announcements-harness.ts).
 */

// testTimeout of a jest project's config is not applied when the root config runs the projects.
jest.setTimeout(300_000);

describe('gateway announcement routes against the real users, stocks and announcements services', () => {
  let users: ServiceProcess;
  let stocks: ServiceProcess;
  let gateway: INestApplication;
  const t = new AnnouncementsRun();

  beforeAll(async () => {
    // Fresh stocks and announcements schemas: the stocks seed makes the demo stocks with their fixed ids,
    // and the announcements service starts from its defaults (mock source, no announcements).
    await Promise.all([dropSchema('stocks'), dropSchema('announcements')]);
    [users, stocks] = await Promise.all([startServiceProcess('users'), startServiceProcess('stocks')]);
    await Promise.all([runServiceSeed('users'), runServiceSeed('stocks')]);
    t.announcements = await startServiceProcess('announcements', {
      // No ASX URL: the mock source. Polling an hour apart, so no poll runs while the tests do.
      env: { DATA_DIR: t.dataDir, POLL_INTERVAL_MS: '3600000', ASX_BASE_URL: '', ASX2_BASE_URL: '' },
    });
    ({ gateway, http: t.http } = await startTestGateway({
      STOCK_PAGE_CONTRIBUTOR_TIMEOUT_MS: String(STOCK_PAGE_TIMEOUT_MS),
    }));

    const { sessions } = t;
    sessions.admin = await t.signIn('admin', 'Admin!2026');
    sessions.reports = await t.signIn('reports', 'Reports!2026');

    t.A = await t.createStock({
      ticker: T('AN'),
      companyName: 'Alpha Announcements',
      apiKey: await t.newApiKey(),
      confirmationEmail: 'ir@alpha.example.com',
      sendPriceSensitiveAnnouncements: true,
      sendNonPriceSensitiveAnnouncements: true,
    });
    t.B = await t.createStock({
      ticker: T('BN'),
      companyName: 'Beta Announcements',
      apiKey: await t.newApiKey(),
    });
    t.R = await t.createStock({ ticker: T('RN'), companyName: 'Resync Resources' });
    await seedTestUsers(PASSWORD, [
      { username: 'ann-test-editor', stockRoles: { [t.A.id]: [StockRole.EditAnnouncements] } },
      { username: 'ann-test-sender', stockRoles: { [t.A.id]: [StockRole.SendMailchimp] } },
      { username: 'ann-test-viewer', stockRoles: { [t.A.id]: [StockRole.ViewConfig] } },
      {
        username: 'ann-test-other',
        stockRoles: { [t.B.id]: [StockRole.EditAnnouncements, StockRole.SendMailchimp] },
      },
    ]);
    for (const who of ['editor', 'sender', 'viewer', 'other'])
      sessions[who] = await t.signIn(`ann-test-${who}`, PASSWORD);

    // The announcements service learns of stocks from stock.upserted: wait until it knows ours.
    for (const stock of [t.A, t.B, t.R])
      await until(
        () => t.get(`/api/Announcement/list/${stock.combinedTicker}`, 'admin'),
        (res) => res.status === 200,
        `the announcements service knowing ${stock.combinedTicker}`,
      );

    t.smallPdf = { data: await makePdf('Half Year Results'), name: 'Half Year Results.pdf' };
    t.base = await t.save(
      t.A.combinedTicker,
      { headline: 'Base announcement', date: DATE },
      'admin',
      t.smallPdf,
    );
    t.onB = await t.save(t.B.combinedTicker, { headline: 'Beta results', date: DATE }, 'admin', t.smallPdf);
  }, 180_000);

  afterAll(async () => {
    await gateway?.close();
    await Promise.all([t.announcements?.stop(), stocks?.stop(), users?.stop()]);
    // Leave no test stocks or announcements behind for a stack started on this database next.
    await Promise.all([dropSchema('stocks'), dropSchema('announcements')]);
    rmSync(t.dataDir, { recursive: true, force: true });
  });

  routeRefusalCases(t);
  listCases(t);
  saveAndPdfCases(t);
  deleteCases(t);
  sendCases(t);
  confirmationCases(t);
  resyncCases(t);
  systemSettingsCases(t);
  fileToolsCases(t);
  reconcileCases(t);
  widgetCases(t);
  stockPageCases(t);
  openApiCases(t);
  // Last: stops the announcements service.
  serviceDownCases(t);
});
