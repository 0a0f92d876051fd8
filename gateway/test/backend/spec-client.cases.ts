import { INestApplication } from '@nestjs/common';
import { API_KEY_MASK, CSRF_HEADER, Stock, STOCK_ROLES, StockRole } from '@irp/proto';
import { PDFDocument } from 'pdf-lib';
import request from 'supertest';
import {
  basic,
  clientOf,
  createStockAsAdmin,
  runId,
  seedTestUsers,
  Session,
  SharedBackend,
  signIn,
  startTestGateway,
  until,
} from '../gateway-harness';

const RUN = runId(5);
const PASSWORD = 'SpecClient!2026';
const DATE = '22 Mar 2025 8:50 AM';

/** Each of these is present (with any value) on the object: the fields spec section 7 or 3 names. */
const withFields = (object: unknown, fields: readonly string[]) =>
  expect(Object.keys(object as object)).toEqual(expect.arrayContaining([...fields]));

/**
 * Spec section 7's calls as a client of the spec sends them: its paths (with the trailing slashes it
 * writes), its query names and body fields, none of this portal's additions, against the gateway in front
 * of the real services. Each is answered 2xx with the fields the spec names. Where we still differ from
 * the spec, and the spec's calls we do not serve yet, is docs/api/spec-differences.md.
 */
export function specClientCases(shared: SharedBackend) {
  describe("spec section 7's calls, sent as the spec's client sends them", () => {
    let gateway: INestApplication;
    let http: ReturnType<typeof request>;
    const sessions: Record<string, Session> = {};
    let get: ReturnType<typeof clientOf>['get'];
    let post: ReturnType<typeof clientOf>['post'];
    let S: Stock; // the stock the calls act on; 'client' holds every stock role on it
    let announcement: Record<string, unknown>; // as GET /api/stock/{combinedTicker} lists it
    let accountingUrl: string; // the accounting stand-in

    /** POST /api/Announcement/save/{combinedTicker}: the multipart form with every field the spec names. */
    async function saveAnnouncement(fields: Record<string, string>, withFile: boolean) {
      let req = http
        .post(`/api/Announcement/save/${S.combinedTicker}`)
        .set('Cookie', sessions.admin.cookie)
        .set('X-XSRF-TOKEN', sessions.admin.csrf);
      const form = {
        headline: '',
        date: DATE,
        remotePath: '',
        existingAnnouncementHeadline: '',
        existingAnnouncementDate: '',
        priceSensitive: 'true',
        videoUrl: '',
        videoDescription: '',
        thumbnailPageNum: '1',
        ...fields,
      };
      for (const [name, value] of Object.entries(form)) req = req.field(name, value);
      if (!withFile) return req;
      const doc = await PDFDocument.create();
      doc.addPage([300, 200]).drawText(form.headline.slice(0, 30), { x: 20, y: 100, size: 12 });
      return req.attach('file', Buffer.from(await doc.save()), {
        filename: 'a.pdf',
        contentType: 'application/pdf',
      });
    }

    const stockPage = async () => {
      const res = await get(`/api/stock/${S.combinedTicker}`, 'admin');
      expect(res.status).toBe(200);
      return res.body as Record<string, unknown> & { announcements: Array<Record<string, unknown>> };
    };

    beforeAll(async () => {
      accountingUrl = shared.backend().accounting.url; // the sink emptied for this group
      ({ gateway, http } = await startTestGateway());
      ({ get, post } = clientOf(http, sessions));
      sessions.admin = await signIn(http, 'admin', 'Admin!2026');
      const { apiKey } = (await get('/api/admin/apiKey', 'admin')).body as { apiKey: string };
      S = await createStockAsAdmin(post, {
        ticker: `SC${RUN}`,
        exchange: 'ASX',
        companyName: 'Spec Client Resources',
        apiKey,
        confirmationEmail: 'ir@specclient.example',
        websiteUrl: 'www.specclient.example',
      });
      await seedTestUsers(PASSWORD, [
        { username: 'sc-test-client', stockRoles: { [S.id]: [...STOCK_ROLES] } },
      ]);
      sessions.client = await signIn(http, 'sc-test-client', PASSWORD);
      // The services learn of the stock from stock.upserted.
      await until(
        () => saveAnnouncement({ headline: 'Quarterly Activities Report' }, true),
        (r) => r.status === 200,
        'announcements knowing the stock',
      );
      await until(
        () => get(`/api/emailMarketingSettings/?id=${S.id}`, 'admin'),
        (r) => r.status === 200,
        'email-marketing knowing the stock',
      );
      // The stock page composes announcements in only when that service answers in time; wait for it.
      const page = await until(
        stockPage,
        (p) => Array.isArray(p.announcements),
        'the stock page with announcements',
      );
      [announcement] = page.announcements;
    }, 180_000);

    afterAll(async () => {
      await gateway?.close();
    });

    it('Auth: GET /api/login with basic auth, GET /api/admin/refreshtoken, DELETE /api/login', async () => {
      const login = await http.get('/api/login').set('Authorization', basic('sc-test-client', PASSWORD));
      expect(login.status).toBe(200);
      withFields(login.body, ['username', 'user', 'roles', 'stockRoles']);
      expect(login.body.stockRoles[S.id]).toEqual(expect.arrayContaining([StockRole.ViewConfig]));
      const own = await signIn(http, 'sc-test-client', PASSWORD);
      const refreshed = await http.get('/api/admin/refreshtoken').set('Cookie', own.cookie);
      expect(refreshed.status).toBe(200);
      withFields(refreshed.body, ['username', 'user', 'roles', 'stockRoles']);
      const logout = await http.delete('/api/login').set('Cookie', own.cookie).set('X-XSRF-TOKEN', own.csrf);
      expect(logout.status).toBe(200);
      expect((await http.get('/api/admin/refreshtoken').set('Cookie', own.cookie)).status).toBe(401);
    });

    it('Stocks: list, the stock, its save sent back as read, apiKey, exchanges/', async () => {
      const list = await get('/api/admin/stocks', 'admin');
      expect(list.status).toBe(200);
      // The list itself (spec section 7: "(list)"), not an object around it.
      expect(Array.isArray(list.body)).toBe(true);
      expect((list.body as Stock[]).map((s) => s.id)).toContain(S.id);

      const page = await stockPage();
      withFields(page, [
        'id',
        'ticker',
        'exchange',
        'isin',
        'companyName',
        'created',
        'archived',
        'pollAsx',
        'completedInitialPoll',
        'sendPriceSensitiveAnnouncements',
        'sendNonPriceSensitiveAnnouncements',
        'autoSendAnnouncementEmail',
        'autoSendNonPriceSensitiveAnnouncements',
        'autoSendFilter',
        'announcementStartYear',
        'confirmationEmail',
        'moderatorEmail',
        'contactEmail',
        'billingDate',
        'websiteUrl',
        'apiKey',
        'announcementNotificationEmails',
        'subscriptionExpired',
        'companyLogoUrl',
        'announcementCommentTemplate',
        'disableMarketData',
        'announcements',
      ]);
      const saved = await post(
        '/api/admin/stocks',
        { ...page, contactEmail: 'cfo@specclient.example' },
        'admin',
      );
      expect(saved.status).toBe(200);
      expect(saved.body).toMatchObject({
        success: true,
        errorMessage: null,
        stock: { id: S.id, contactEmail: 'cfo@specclient.example' },
      });

      const key = await get('/api/admin/apiKey', 'admin');
      expect(key.body.apiKey).toMatch(/^[0-9a-f]{32}$/);
      const exchanges = await get('/api/admin/exchanges/', 'admin');
      expect(exchanges.status).toBe(200);
      expect(Array.isArray(exchanges.body)).toBe(true);
    });

    it('Stocks: changeTicker (exchange, ticker, newTicker) and archiveStock (exchange, ticker)', async () => {
      const T = await createStockAsAdmin(post, { ticker: `TC${RUN}`, companyName: 'Ticker Change' });
      const changed = await post(
        '/api/admin/changeTicker',
        { exchange: T.exchange, ticker: T.ticker, newTicker: `TD${RUN}` },
        'admin',
      );
      expect(changed.status).toBe(200);
      expect(changed.body).toMatchObject({
        success: true,
        errorMessage: null,
        stock: { ticker: `TD${RUN}` },
      });
      const archived = await post(
        '/api/admin/archiveStock',
        { exchange: 'ASX', ticker: `TD${RUN}` },
        'admin',
      );
      expect(archived.status).toBe(200);
      expect(archived.body).toMatchObject({ success: true, errorMessage: null, stock: { archived: true } });
    });

    it('Client stock: GET /api/ClientStock/?combinedTicker, POST /api/ClientStock (the form as read, edited), GET /api/clientDashboard/', async () => {
      const form = await get(`/api/ClientStock/?combinedTicker=${S.combinedTicker}`, 'client');
      expect(form.status).toBe(200);
      withFields(form.body, [
        'combinedTicker',
        'emailMarketing',
        'invoiceId',
        'invoiceTotal',
        'invoiceStatus',
        'invoiceDate',
        'invoiceNumber',
      ]);
      const saved = await post(
        '/api/ClientStock',
        {
          // The client-facing form of section 3 as it was read (read-only fields included), edited.
          ...form.body,
          combinedTicker: S.combinedTicker,
          companyName: 'Spec Client Resources Ltd',
          websiteUrl: 'www.specclient.example',
          confirmationEmail: 'ir@specclient.example',
          contactEmail: 'cfo@specclient.example',
          sendPriceSensitiveAnnouncements: true,
          sendNonPriceSensitiveAnnouncements: false,
        },
        'client',
      );
      expect(saved.status).toBe(200);
      expect(saved.body).toMatchObject({
        success: true,
        errorMessage: null,
        stock: { companyName: 'Spec Client Resources Ltd' },
      });
      const dashboard = await get('/api/clientDashboard/', 'client');
      expect(dashboard.status).toBe(200);
      expect((dashboard.body.stocks as Stock[]).map((s) => s.id)).toEqual([S.id]);
    });

    it('Announcements: the multipart save with the spec fields, an edit named by the existing headline and date', async () => {
      withFields(announcement, [
        'headline',
        'headlineOriginal',
        'date',
        'priceSensitive',
        'remotePath',
        'localPath',
        'videoUrl',
        'videoDescription',
        'thumbnailPageNum',
        'sent',
        'sendHistory',
        'sendGuid',
        'numComments',
        'hits',
        'deletedOn',
      ]);
      const edited = await saveAnnouncement(
        {
          headline: 'Quarterly Activities Report (amended)',
          existingAnnouncementHeadline: 'Quarterly Activities Report',
          existingAnnouncementDate: DATE,
        },
        false,
      );
      expect(edited.status).toBe(200);
      expect(edited.body.announcement).toMatchObject({
        sendGuid: announcement.sendGuid,
        headline: 'Quarterly Activities Report (amended)',
        headlineOriginal: 'Quarterly Activities Report',
      });
      [announcement] = (await stockPage()).announcements;
    });

    it('Announcements: send and send again ?sendOverride, the confirmation email, with the announcement as read', async () => {
      const path = `/api/Announcement/send/${S.combinedTicker}`;
      expect((await post(path, announcement, 'client')).status).toBe(200);
      expect((await post(`${path}?sendOverride=true`, announcement, 'client')).status).toBe(200);
      // The spec shows no body here; we need to know which announcement (docs/api/spec-differences.md).
      const confirmation = await post(
        `/api/admin/sendConfirmationAnnouncementEmail/${S.combinedTicker}`,
        announcement,
        'admin',
      );
      expect(confirmation.status).toBe(200);
      expect(confirmation.body).toMatchObject({ success: true, errorMessage: null });
    });

    it('Comments: GET /api/AnnouncementComments/?combinedTicker&announcementGuid, GET and POST /api/AnnouncementCommentResponse/{guid}', async () => {
      // An investor's question comes through the widget API (this portal's addition).
      const asked = await http.post(`/api/widget/comments?apiKey=${S.apiKey}`).send({
        sendGuid: announcement.sendGuid,
        name: 'Pat',
        email: 'pat@investor.example',
        comment: 'When?',
      });
      expect(asked.status).toBe(201);
      const guid = asked.body.guid as string;

      const comments = await get(
        `/api/AnnouncementComments/?combinedTicker=${S.combinedTicker}&announcementGuid=${String(announcement.sendGuid)}`,
        'client',
      );
      expect(comments.status).toBe(200);
      withFields(comments.body, ['combinedTicker', 'commentGroups']);
      withFields(comments.body.commentGroups[0], ['announcementHeadline', 'comments']);
      withFields(comments.body.commentGroups[0].comments[0], [
        'announcementCommentEventGuid',
        'date',
        'name',
        'comment',
        'responses',
      ]);
      expect(
        (await get(`/api/AnnouncementComments/?combinedTicker=${S.combinedTicker}`, 'client')).status,
      ).toBe(200);

      const page = await get(`/api/AnnouncementCommentResponse/${guid}`, 'client');
      expect(page.status).toBe(200);
      withFields(page.body, [
        'guid',
        'announcementHeadline',
        'announcementDate',
        'created',
        'isPublic',
        'request',
        'response',
      ]);
      withFields(page.body.request, ['name', 'email', 'comment']);
      const responded = await post(
        `/api/AnnouncementCommentResponse/${guid}`,
        { guid, comment: 'In May.', isPublic: true },
        'client',
      );
      expect(responded.status).toBe(200);
      expect(responded.body).toMatchObject({ success: true, errorMessage: null });
    });

    it('Announcements: delete with the announcement as read', async () => {
      const deleted = await post(`/api/Announcement/delete/${S.combinedTicker}`, announcement, 'client');
      expect(deleted.status).toBe(200);
      expect(deleted.body.announcement.deletedOn).toEqual(expect.any(String));
    });

    it("Email marketing: settings GET by id and POST (StockId, Settings), the subscriber count, the test sends with the spec's body, sendEmail", async () => {
      const Settings = {
        listId: 'demo-list',
        apiKey: 'demo-mailchimp-key-us1',
        templateId: '',
        replyTo: 'ir@specclient.example',
        fromName: 'Spec Client IR',
        savedSegmentId: '',
        clientId: '',
        testEmailAddresses: 'qa@specclient.example',
      };
      const saved = await post('/api/emailMarketingSettings/', { StockId: S.id, Settings }, 'client');
      expect(saved.status).toBe(200);
      // The provider key is write-only (docs/api/spec-differences.md): answered as the mask, with apiKeySet.
      const answered = { ...Settings, apiKey: API_KEY_MASK, apiKeySet: true };
      expect(saved.body).toMatchObject({ success: true, errorMessage: null, settings: answered });
      const read = await get(`/api/emailMarketingSettings/?id=${S.id}`, 'client');
      expect(read.body).toMatchObject({ success: true, settings: answered });

      // The spec's query names; the key is not taken in a URL (docs/api/spec-differences.md): blank, the
      // saved one counts, and a key typed and not saved goes in the X-Provider-Api-Key header.
      const count = await get(
        `/api/EmailMarketingSubscriberCount?apiKey=&listId=demo-list&clientId=&stockId=${S.id}`,
        'client',
      );
      expect(count.status).toBe(200);
      expect(count.body).toEqual({ success: true, count: 3, message: expect.any(String) });

      const body = {
        apiKey: S.apiKey,
        listId: 'demo-list',
        templateId: '',
        replyTo: 'ir@specclient.example',
        fromName: 'Spec Client IR',
        clientId: '',
        testEmailAddresses: 'qa@specclient.example',
      };
      const test = await post('/api/TestSendAnnouncement/sendTestEmail', body, 'client');
      expect(test.status).toBe(200);
      expect(test.body).toMatchObject({ errorMessage: null, previewUrl: expect.any(String) });
      const sent = await post('/api/TestSendAnnouncement/sendToSubscribers', body, 'admin');
      expect(sent.status).toBe(200);
      expect(sent.body).toMatchObject({ errorMessage: null, previewUrl: expect.any(String) });

      const email = await post('/api/admin/sendEmail', { email: 'ops@specclient.example' }, 'admin');
      expect(email.status).toBe(200);
      expect(email.body).toMatchObject({ success: true });
    });

    it('Notes: saveNote (ticker, details), getNotes, getStockVersionHistory, stockReferers ?ticker, and the referers of all stocks', async () => {
      // A widget request from a page, so the stock has a referer.
      const widget = await http
        .get(`/api/widget/stock?apiKey=${S.apiKey}`)
        .set('Referer', 'https://www.specclient.example/investors');
      expect(widget.status).toBe(200);

      for (const ticker of [S.ticker, S.combinedTicker]) {
        const note = await post(
          '/api/admin/saveNote',
          { ticker, details: `Called the CFO (${ticker})` },
          'admin',
        );
        expect({ ticker, status: note.status }).toEqual({ ticker, status: 200 });
        const notes = await get(`/api/admin/getNotes?ticker=${ticker}`, 'admin');
        expect(notes.status).toBe(200);
        withFields(notes.body[0], ['id', 'date', 'user', 'details']);
      }
      const history = await get(`/api/admin/getStockVersionHistory?ticker=${S.ticker}`, 'admin');
      expect(history.status).toBe(200);
      withFields(history.body[0], ['versionId', 'changedOn', 'changedBy', 'changes']);
      withFields(history.body[0].changes[0], ['fieldName', 'originalValue', 'newValue']);
      const referers = await get(`/api/admin/stockReferers?ticker=${S.ticker}`, 'admin');
      expect(referers.status).toBe(200);
      withFields(referers.body[0], ['url', 'count', 'first', 'last']);
      const all = await get('/api/admin/referers', 'admin');
      expect(all.status).toBe(200);
      withFields(
        (all.body as Array<{ ticker: string }>).find((s) => s.ticker === S.ticker),
        ['ticker', 'exchange', 'referers'],
      );
    });

    it('Sync and system: resyncAnnouncements?ticker, systemSettings sent back as read, fileCleanup, diskReport?includeBillable, reconcile', async () => {
      const resync = await post(`/api/admin/resyncAnnouncements?ticker=${S.ticker}`, {}, 'admin');
      expect(resync.status).toBe(200);

      const settings = await get('/api/admin/systemSettings', 'admin');
      withFields(settings.body, [
        'announcementService',
        'errorEmail',
        'hourlyAutoSendLimit',
        'dailyAutoSendLimit',
        'disablePollUntil',
        'useNightmare',
      ]);
      const savedSettings = await post('/api/admin/systemSettings', settings.body, 'admin');
      expect(savedSettings.status).toBe(200);
      expect(savedSettings.body).toMatchObject({ success: true, errorMessage: null });

      const cleanup = await get('/api/admin/fileCleanup', 'admin');
      expect({ status: cleanup.status, errorMessage: cleanup.body.errorMessage }).toEqual({
        status: 200,
        errorMessage: undefined,
      });
      withFields(cleanup.body, ['missingOnDisk', 'duplicates', 'onDiskButNotInDatabase']);
      const disk = await get('/api/admin/diskReport?includeBillable=true', 'admin');
      withFields(
        (disk.body as Array<{ ticker: string }>).find((i) => i.ticker === S.ticker),
        ['ticker', 'diskSpace', 'website', 'apiKey', 'lastUsedInReport'],
      );

      const run = await post('/api/reconcile/run?numDays=1', {}, 'admin');
      expect(run.status).toBe(200);
      const done = await until(
        async () => (await get(`/api/reconcile/get/${String(run.body.id)}`, 'admin')).body,
        (r: { status: string }) => r.status !== 'running',
        'the reconcile run finishing',
        150_000,
      );
      expect(done).toMatchObject({ status: 'completed', results: expect.any(Array) });
      expect((await get('/api/reconcile/last/', 'admin')).body.id).toBe(run.body.id);
      expect((await post(`/api/reconcile/apply/${String(run.body.id)}`, {}, 'admin')).status).toBe(200);
      // A reconcile reads every polled stock's feed from the stand-in: seconds alone, minutes beside the browser
      // lane on a busy 2-core machine. No time budget here (speed is bench/'s business).
    }, 240_000);

    it('Market data, Sync and Reports: the spec calls as its client makes them (docs/api/reports.md)', async () => {
      await until(
        async () => (await get(`/api/admin/reports?ticker=${S.ticker}`, 'admin')).status,
        (status) => status === 200,
        'the reports service knowing the stock',
        30_000,
      );
      const saved = await post(
        `/api/admin/saveMarketData/${S.combinedTicker}`,
        { ask: '1.5', bid: 1.4 },
        'admin',
      );
      expect(saved.status).toBe(200);
      expect(saved.body).toMatchObject({ ask: 1.5, bid: 1.4, updated: expect.any(String) });
      expect((await get(`/api/stock/${S.combinedTicker}`, 'admin')).body.currentMarketData).toEqual(
        saved.body,
      );
      const update = await post('/api/admin/updateChartData/', { id: S.id }, 'admin');
      expect(update.body).toMatchObject({ success: true, errorMessage: null });
      const chart = await get(`/api/admin/getChartData/?id=${S.id}`, 'admin');
      expect(chart.body).toHaveLength(update.body.rowCount);
      expect((await post('/api/admin/syncWatchlist', {}, 'admin')).status).toBe(200);
      const prior = await post('/api/admin/runPriorDay', {}, 'admin');
      expect(prior.status).toBe(200);
      const day = prior.body.day as string;
      const generated = await http
        .post('/api/admin/generateReport')
        .set('Cookie', sessions.admin!.cookie)
        .set(CSRF_HEADER, sessions.admin!.csrf)
        .field('Ticker', S.combinedTicker)
        .field('StartDate', day)
        .field('EndDate', day)
        .field('Peers', '')
        .field('ComparativeTradingActivity', 'false')
        .field('PriceOverlay', 'false')
        .field('AllowSearch', 'true');
      expect(generated.status).toBe(200);
      expect(generated.body).toMatchObject({
        errorMessage: null,
        report: { ticker: S.combinedTicker, startDate: day },
      });
      const guid = generated.body.report.guid as string;
      expect((await get(`/api/admin/reports?ticker=${S.ticker}`, 'admin')).body[0].guid).toBe(guid);
      expect((await http.get(`/api/report/${guid}`)).body.guid).toBe(guid);
      const again = await http
        .post('/api/report/generateReport')
        .send({ Guid: guid, StartDate: day, EndDate: day });
      expect(again.status).toBe(200);
      expect(again.body.report.guid).not.toBe(guid);
    });

    it('Users: lists users, reads one with its permission rows, saves one (new creates)', async () => {
      await until(
        async () => (await get(`/api/userEditor/companies?search=${S.ticker}`, 'admin')).body,
        (companies) => Array.isArray(companies) && companies.length > 0,
        `the users service's projection knowing ${S.combinedTicker}`,
      );
      const saved = await post(
        '/api/users/new',
        {
          username: `sc-user-${RUN}`,
          password: 'Spec-Client-Users-2026',
          permissions: [
            { combinedTicker: S.combinedTicker, companyName: S.companyName, roles: ['ViewConfig'] },
          ],
        },
        'admin',
      );
      expect(saved.status).toBe(200);
      withFields(saved.body, ['success', 'errorMessage', 'id']);
      const list = await get('/api/users/', 'admin');
      expect(list.status).toBe(200);
      const listed = (list.body as Array<{ id: string; username: string }>).find(
        (u) => u.id === saved.body.id,
      );
      expect(listed).toEqual({ id: saved.body.id, username: `sc-user-${RUN}` });
      const user = await get(`/api/users/${saved.body.id}`, 'admin');
      withFields(user.body, ['username', 'permissions']);
      withFields(user.body.permissions[0], ['combinedTicker', 'companyName', 'roles']);
      expect(user.body.permissions[0]).toMatchObject({
        combinedTicker: S.combinedTicker,
        roles: ['ViewConfig'],
      });
    });

    it('Orders: services/?groupId returns options, POST /api/serviceorder/ with the form fields, serviceOrders/, createStockFromServiceOrder/, getServiceOrder?ticker', async () => {
      // No group named: the default group's; the spec's Service option fields on each.
      const services = await http.get('/api/serviceorder/services/');
      expect(services.status).toBe(200);
      const options = services.body.options as Array<Record<string, unknown>>;
      expect(options.length).toBeGreaterThan(0);
      for (const option of options) withFields(option, ['name', 'price', 'lineItems', 'isDefault']);
      const chosen = options.find((o) => o.isDefault)!;
      expect((await http.get(`/api/serviceorder/services/?groupId=${String(chosen.groupId)}`)).body).toEqual(
        services.body,
      );
      // Spec section 3's order form fields, the option as the services call listed it.
      const form = {
        companyName: `Spec Client Order ${RUN}`,
        ticker: `SO${RUN}`,
        website: 'https://spec-order.example',
        listingDate: '',
        contactName: 'Priya Raman',
        contactPhone: '08 9322 4410',
        contactEmail: 'priya@spec-order.example',
        abn: '51 824 753 556',
        address: '190 St Georges Terrace, Perth WA 6000',
        authorisedBy: 'Priya Raman',
        option: chosen,
        confirmationEmail: 'ir@spec-order.example',
        sendPriceSensitiveAnnouncements: true,
        sendNonPriceSensitiveAnnouncements: true,
        autoSendAnnouncementEmail: true,
        autoSendNonPriceSensitiveAnnouncements: false,
      };
      // The form's token, fetched when it is shown (docs/api/spec-differences.md): the test gateway takes it
      // at once.
      const { token } = (await http.get('/api/serviceorder/form-token')).body as { token: string };
      const submitted = await http.post('/api/serviceorder/').send({ ...form, formToken: token });
      expect(submitted.status).toBe(200);
      const list = await get('/api/admin/serviceOrders/', 'admin');
      expect(list.status).toBe(200);
      const order = (list.body.serviceOrders as Array<Record<string, unknown>>).find(
        (o) => o.companyName === form.companyName,
      )!;
      withFields(order, [
        'id',
        'timestamp',
        'companyName',
        'ticker',
        'reference',
        'option',
        'authorisedBy',
        'website',
        'address',
        'contactName',
        'contactPhone',
        'contactEmail',
        'abn',
        'isCreated',
      ]);
      expect(order.option).toEqual({ name: chosen.name, price: chosen.price, lineItems: chosen.lineItems });
      expect(order.isCreated).toBe(false);
      // The create payload (serviceOrderId, ticker, reference): errorMessage, then the url.
      const refused = await post(
        '/api/admin/createStockFromServiceOrder/',
        { serviceOrderId: order.id, ticker: 'x!', reference: '' },
        'admin',
      );
      expect(refused.body.errorMessage).toBe('Please define a valid ticker');
      const created = await post(
        '/api/admin/createStockFromServiceOrder/',
        { serviceOrderId: order.id, ticker: `SO${RUN}`, reference: `SO-${RUN}` },
        'admin',
      );
      expect(created.status).toBe(200);
      expect(created.body.url).toBe(`/stocks/SO${RUN}:ASX`);
      const ofStock = await get(`/api/admin/getServiceOrder?ticker=SO${RUN}:ASX`, 'admin');
      expect(ofStock.status).toBe(200);
      expect(ofStock.body).toMatchObject({ id: order.id, reference: `SO-${RUN}`, isCreated: true });
    });

    it('Invoicing: invoices?ticker, saveInvoiceData (Ticker, RepeatingInvoiceId, Invoices as read), the accounting page, refresh, assign, createContact?id, createRepeatingInvoice, the reminder email, the invoice download', async () => {
      // Two invoices of a reference no stock has: the accounting page lists them once refreshed.
      const reference = `SCX-${RUN}`;
      const seeded = await fetch(`${accountingUrl}/standin/invoices`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ count: 2, reference }),
      });
      expect(seeded.status).toBe(201);
      const held = (
        (await (await fetch(`${accountingUrl}/standin/invoices?reference=${reference}`)).json()) as {
          Invoices: Array<{ InvoiceID: string; InvoiceNumber: string }>;
        }
      ).Invoices;
      expect(held).toHaveLength(2);
      const heldIds = held.map((i) => i.InvoiceID.toLowerCase());
      const same = (a: string) => (b: string) => a.toLowerCase() === b.toLowerCase();

      const refreshed = await post('/api/admin/refreshAccounting', {}, 'admin');
      expect(refreshed.status).toBe(200);
      withFields(refreshed.body, ['repeatingInvoices', 'invoices', 'ignored']);
      const page = await get('/api/admin/accountingInvoices', 'admin');
      expect(page.status).toBe(200);
      withFields(page.body, ['repeatingInvoices', 'invoices', 'ignored']);
      const listed = (page.body.invoices as Array<{ invoiceID: string; text: string }>).filter((i) =>
        heldIds.some(same(i.invoiceID)),
      );
      expect(listed).toHaveLength(2);
      for (const line of listed) withFields(line, ['invoiceID', 'text']);
      const [first, second] = [listed[0]!, listed[1]!];

      // Assign: the first to the stock (ticker:exchange), the second ignored; the page's shape again.
      const assigned = await post(
        '/api/admin/assignAccountingInvoices',
        {
          items: [
            { invoiceId: first.invoiceID, ticker: S.combinedTicker },
            { invoiceId: second.invoiceID, ignore: true },
          ],
        },
        'admin',
      );
      expect(assigned.status).toBe(200);
      withFields(assigned.body, ['repeatingInvoices', 'invoices', 'ignored']);
      const ids = (list: Array<{ invoiceID: string }>) => list.map((i) => i.invoiceID.toLowerCase());
      expect(ids(assigned.body.ignored)).toContain(second.invoiceID.toLowerCase());
      expect(ids(assigned.body.invoices)).not.toContain(first.invoiceID.toLowerCase());

      const read = await get(`/api/admin/invoices?ticker=${S.combinedTicker}`, 'admin');
      expect(read.status).toBe(200);
      withFields(read.body, [
        'repeatingInvoices',
        'repeatingInvoiceId',
        'invoices',
        'contactId',
        'reference',
      ]);
      expect(ids(read.body.invoices)).toEqual([first.invoiceID.toLowerCase()]);
      withFields(read.body.invoices[0], [
        'invoiceID',
        'invoiceNumber',
        'status',
        'total',
        'date',
        'reference',
        'contactName',
        'repeatingInvoiceID',
      ]);

      const contact = await post(`/api/admin/createContact?id=${S.id}`, {}, 'admin');
      expect(contact.status).toBe(200);
      expect(contact.body).toMatchObject({ success: true, errorMessage: null });
      const repeating = await post('/api/admin/createRepeatingInvoice', { id: S.id, amount: 1800 }, 'admin');
      expect(repeating.status).toBe(200);
      expect(repeating.body).toMatchObject({ success: true, errorMessage: null });
      withFields(repeating.body.repeatingInvoice, ['id', 'total', 'text', 'schedule']);
      withFields(repeating.body.repeatingInvoice.schedule, ['nextScheduledDate']);
      const repeatingId = repeating.body.repeatingInvoice.id as string;

      // saveInvoiceData as the spec's client sends it: PascalCase, the invoices as it read them.
      const asRead = (await get(`/api/admin/invoices?ticker=${S.combinedTicker}`, 'admin')).body;
      expect(asRead).toMatchObject({ repeatingInvoiceId: repeatingId, contactId: contact.body.contactId });
      const saveInvoiceData = (body: object) =>
        post(`/api/admin/saveInvoiceData/${S.combinedTicker}`, body, 'admin');
      const saved = await saveInvoiceData({
        Ticker: S.combinedTicker,
        RepeatingInvoiceId: repeatingId,
        Invoices: [...asRead.invoices, { ...asRead.invoices[0], invoiceID: second.invoiceID }],
      });
      expect(saved.status).toBe(200);
      withFields(saved.body, [
        'repeatingInvoices',
        'repeatingInvoiceId',
        'invoices',
        'contactId',
        'reference',
      ]);
      expect(saved.body.repeatingInvoiceId).toBe(repeatingId);
      expect(ids(saved.body.invoices).sort()).toEqual(
        [first.invoiceID, second.invoiceID].map((id) => id.toLowerCase()).sort(),
      );
      // Unassigned again by sending the invoices without it (`repeatingInvoiceID`, another spelling).
      const unassigned = await saveInvoiceData({
        Ticker: S.combinedTicker,
        repeatingInvoiceID: repeatingId,
        Invoices: saved.body.invoices.filter((i: { invoiceID: string }) =>
          same(i.invoiceID)(first.invoiceID),
        ),
      });
      expect(unassigned.status).toBe(200);
      expect(ids(unassigned.body.invoices)).toEqual([first.invoiceID.toLowerCase()]);
      expect(ids((await get('/api/admin/accountingInvoices', 'admin')).body.invoices)).toContain(
        second.invoiceID.toLowerCase(),
      );
      // Our own shape: camelCase ids; the repeating invoice left out stays as chosen.
      const idsOnly = await saveInvoiceData({ invoices: [first.invoiceID] });
      expect(idsOnly.status).toBe(200);
      expect(idsOnly.body.repeatingInvoiceId).toBe(repeatingId);
      expect(ids(idsOnly.body.invoices)).toEqual([first.invoiceID.toLowerCase()]);
      const otherStock = await saveInvoiceData({ Ticker: 'BHP:ASX', RepeatingInvoiceId: repeatingId });
      expect(otherStock.status).toBe(400);
      expect(otherStock.body.errorMessage).toBe(
        `Ticker BHP:ASX names another stock than the path's ${S.combinedTicker}`,
      );
      const unknownField = await saveInvoiceData({ Ticker: S.combinedTicker, Invoices: [], Amount: 1 });
      expect(unknownField.status).toBe(400);
      expect(unknownField.body.errorMessage).toContain("'Amount'");

      // The client-facing form's invoice fields (spec section 3): the stock's latest invoice.
      const invoice = unassigned.body.invoices[0];
      const form = (await get(`/api/ClientStock/?combinedTicker=${S.combinedTicker}`, 'client')).body;
      const invoiceFields = {
        invoiceId: invoice.invoiceID,
        invoiceTotal: invoice.total,
        invoiceStatus: invoice.status,
        invoiceDate: invoice.date,
        invoiceNumber: invoice.invoiceNumber,
      };
      expect(form).toMatchObject(invoiceFields);
      const row = (await get('/api/clientDashboard/', 'client')).body.stocks.find(
        (s: Stock) => s.id === S.id,
      );
      expect(row).toMatchObject(invoiceFields);

      const reminder = await get(`/api/admin/accountingReminderEmail/${S.combinedTicker}`, 'admin');
      expect(reminder.status).toBe(200);
      withFields(reminder.body, ['html']);
      expect(reminder.body.html).toContain(`(${S.combinedTicker})`);
      // It lists the stock's unpaid invoices: this one when the stand-in made it unpaid.
      expect(reminder.body.unpaidCount).toBe(invoice.unpaid ? 1 : 0);
      if (invoice.unpaid) expect(reminder.body.html).toContain(invoice.invoiceNumber);

      const pdf = await http
        .get(`/api/invoice?ticker=${S.combinedTicker}&invoiceId=${invoice.invoiceID}`)
        .set('Cookie', sessions.client.cookie)
        .buffer(true)
        .parse((r, done) => {
          const chunks: Buffer[] = [];
          r.on('data', (c: Buffer) => chunks.push(c));
          r.on('end', () => done(null, Buffer.concat(chunks)));
        });
      expect(pdf.status).toBe(200);
      expect(pdf.headers['content-type']).toBe('application/pdf');
      expect((pdf.body as Buffer).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    });
  });
}
