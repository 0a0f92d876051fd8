import { INestApplication } from '@nestjs/common';
import {
  AnnouncementListSchema,
  API_KEY_MASK,
  BOTH_KEYS_MESSAGE,
  CHECK_INBOX_MESSAGE,
  EmailMarketingSettingsResponseSchema,
  INVALID_SUBSCRIBER_EMAIL_MESSAGE,
  PROVIDER_API_KEY_HEADER,
  PROVIDER_KEY_IN_URL_MESSAGE,
  sendToSubscribersLimitMessage,
  Stock,
  StockRole,
  SubscribersResponseSchema,
  SUBSCRIBER_PAGE_SIZE,
} from '@irp/proto';
import { settledDeliveries, SmtpSink } from '@irp/platform/testing';
import { Client } from 'pg';
import { PDFDocument } from 'pdf-lib';
import request from 'supertest';
import {
  clientOf,
  connectTestDatabase,
  createStockAsAdmin,
  MailBackend,
  PUBLIC_BASE_URL,
  runId,
  seedTestUsers,
  Session,
  SharedBackend,
  signIn,
  startTestGateway,
  until,
} from '../gateway-harness';

const RUN = runId();
const PASSWORD = 'EmailTest!2026';

/**
 * Contract tests of the email routes (docs/api/email-marketing.md): the gateway in front of the real users,
 * stocks, announcements and email-marketing services (each its own process) on the real broker, database
 * and an SMTP server whose mails are parsed. Roles (signed out 401, wrong role 403), bad input 400 with
 * nothing stored, the subscription links, the dashboards' column, and an announcement sent from the
 * Announcements route reaching a subscriber's inbox and its sendHistory.
 */
export function emailMarketingCases(shared: SharedBackend) {
  describe('gateway email routes against the real services', () => {
    let backend: MailBackend;
    let gateway: INestApplication;
    let http: ReturnType<typeof request>;
    let sink: SmtpSink;
    const sessions: Record<string, Session> = {};
    let get: ReturnType<typeof clientOf>['get'];
    let post: ReturnType<typeof clientOf>['post'];
    let A: Stock; // editor: EditMailchimp; tester: EditMailchimp + TestSendAnnouncement
    let B: Stock; // other: EditMailchimp on B only
    let N: Stock; // no product API key
    let C: Stock; // tester: TestSendAnnouncement; its saved settings are a list of the providers' stand-in
    let db: Client;

    const settingsBody = (stockId: string, fields: Record<string, string> = {}) => ({
      StockId: stockId,
      Settings: {
        provider: 'mailchimp',
        listId: 'list-1',
        apiKey: 'key-us1',
        fromName: 'Alpha IR',
        replyTo: 'ir@alpha.example',
        testEmailAddresses: 'qa@alpha.example',
        ...fields,
      },
    });
    /**
     * Spec section 7's body of the test sends, exactly: apiKey (the stock's product API key), listId,
     * templateId, replyTo, fromName, clientId, testEmailAddresses. No stock id, no email-marketing key.
     */
    const specTestSendBody = (stock: Stock, fields: Record<string, string> = {}) => ({
      apiKey: stock.apiKey ?? '',
      listId: 'demo-list',
      templateId: '',
      replyTo: 'ir@campaign.example',
      fromName: 'Campaign IR',
      clientId: '',
      testEmailAddresses: 'qa@campaign.example',
      ...fields,
    });
    const settingsOf = async (stockId: string) =>
      EmailMarketingSettingsResponseSchema.parse(
        (await get(`/api/emailMarketingSettings/?id=${stockId}`, 'admin')).body,
      ).settings;

    beforeAll(async () => {
      backend = shared.backend();
      ({ sink } = backend);
      db = await connectTestDatabase();
      ({ gateway, http } = await startTestGateway());
      ({ get, post } = clientOf(http, sessions));
      sessions.admin = await signIn(http, 'admin', 'Admin!2026');
      sessions.reports = await signIn(http, 'reports', 'Reports!2026');

      const create = (fields: Record<string, unknown>) => createStockAsAdmin(post, fields);
      const newApiKey = async () => (await get('/api/admin/apiKey', 'admin')).body.apiKey as string;
      A = await create({
        ticker: `EA${RUN}`,
        companyName: 'Alpha Email',
        apiKey: await newApiKey(),
        sendPriceSensitiveAnnouncements: true,
      });
      B = await create({ ticker: `EB${RUN}`, companyName: 'Beta Email', apiKey: await newApiKey() });
      N = await create({ ticker: `EN${RUN}`, companyName: 'No Key Email' });
      C = await create({ ticker: `EC${RUN}`, companyName: 'Campaign Email', apiKey: await newApiKey() });
      await seedTestUsers(PASSWORD, [
        { username: 'em-test-editor', stockRoles: { [A.id]: [StockRole.EditMailchimp] } },
        {
          username: 'em-test-tester',
          stockRoles: {
            [A.id]: [StockRole.EditMailchimp, StockRole.TestSendAnnouncement],
            [N.id]: [StockRole.EditMailchimp, StockRole.TestSendAnnouncement],
            [C.id]: [StockRole.TestSendAnnouncement],
          },
        },
        {
          username: 'em-test-other',
          stockRoles: { [B.id]: [StockRole.EditMailchimp, StockRole.TestSendAnnouncement] },
        },
      ]);
      for (const who of ['editor', 'tester', 'other'])
        sessions[who] = await signIn(http, `em-test-${who}`, PASSWORD);
      // The services learn of stocks from stock.upserted: wait until both know ours.
      for (const stock of [A, B, N, C]) {
        await until(
          () =>
            post('/api/emailMarketingSettings/', settingsBody(stock.id, { listId: '', apiKey: '' }), 'admin'),
          (r) => r.status === 200,
          `email-marketing knowing ${stock.ticker}`,
        );
        await until(
          () => get(`/api/Announcement/list/${stock.combinedTicker}`, 'admin'),
          (r) => r.status === 200,
          `announcements knowing ${stock.ticker}`,
        );
      }
    }, 180_000);

    afterAll(async () => {
      await gateway?.close();
      await db?.end();
    });

    describe('roles: signed out 401, wrong role 403, nothing changed', () => {
      const routes = () => [
        {
          name: 'GET settings',
          call: (w?: string) => get(`/api/emailMarketingSettings/?id=${A.id}`, w),
          wrong: ['reports', 'other'],
        },
        {
          name: 'POST settings',
          call: (w?: string) =>
            post('/api/emailMarketingSettings/', settingsBody(A.id, { fromName: 'Hijacked' }), w),
          wrong: ['reports', 'other'],
        },
        {
          name: 'GET subscriber count',
          call: (w?: string) =>
            get(`/api/EmailMarketingSubscriberCount?listId=l&clientId=&stockId=${A.id}`, w).set(
              PROVIDER_API_KEY_HEADER,
              'k',
            ),
          wrong: ['reports', 'other'],
        },
        {
          name: 'POST sendTestEmail',
          call: (w?: string) => post('/api/TestSendAnnouncement/sendTestEmail', specTestSendBody(A), w),
          wrong: ['reports', 'other', 'editor'],
        },
        {
          name: 'POST sendToSubscribers',
          call: (w?: string) => post('/api/TestSendAnnouncement/sendToSubscribers', specTestSendBody(A), w),
          wrong: ['reports', 'other', 'editor', 'tester'],
        },
        {
          name: 'POST sendEmail',
          call: (w?: string) => post('/api/admin/sendEmail', { email: 'x@example.com' }, w),
          wrong: ['reports', 'editor', 'tester'],
        },
        {
          name: 'GET subscribers',
          call: (w?: string) => get(`/api/admin/subscribers?combinedTicker=${A.combinedTicker}`, w),
          wrong: ['reports', 'editor', 'tester'],
        },
      ];

      it.each([
        'GET settings',
        'POST settings',
        'GET subscriber count',
        'POST sendTestEmail',
        'POST sendToSubscribers',
        'POST sendEmail',
        'GET subscribers',
      ])('%s', async (name) => {
        const route = routes().find((r) => r.name === name)!;
        const before = await settingsOf(A.id);
        sink.clear();
        expect((await route.call()).status).toBe(401);
        for (const who of route.wrong)
          expect({ who, status: (await route.call(who)).status }).toEqual({ who, status: 403 });
        expect(await settingsOf(A.id)).toEqual(before);
        expect(sink.mails).toHaveLength(0);
      });
    });

    describe('settings', () => {
      it('saves and reads back; the dashboards show the Email marketing tick', async () => {
        const res = await post(
          '/api/emailMarketingSettings/',
          settingsBody(A.id, { testEmailAddresses: 'qa@alpha.example; cfo@alpha.example ' }),
          'editor',
        );
        expect(res.status).toBe(200);
        expect(res.body).toEqual({
          success: true,
          errorMessage: null,
          settings: {
            stockId: A.id,
            provider: 'mailchimp',
            listId: 'list-1',
            apiKey: API_KEY_MASK,
            apiKeySet: true,
            templateId: '',
            replyTo: 'ir@alpha.example',
            fromName: 'Alpha IR',
            savedSegmentId: '',
            clientId: '',
            testEmailAddresses: 'qa@alpha.example, cfo@alpha.example',
          },
        });
        expect((await get(`/api/emailMarketingSettings/?id=${A.id}`, 'editor')).body.settings.fromName).toBe(
          'Alpha IR',
        );
        const dashboard = (await get('/api/admin/stocks', 'admin')).body as Array<{
          id: string;
          emailMarketing: boolean | null;
        }>;
        expect(dashboard.find((s) => s.id === A.id)?.emailMarketing).toBe(true);
        expect(dashboard.find((s) => s.id === N.id)?.emailMarketing).toBe(false);
      });

      it('the provider key is write-only (masked, with apiKeySet) and encrypted at rest; the mask or a blank keeps it', async () => {
        const storedKey = async () =>
          (await db.query(`SELECT api_key FROM email_marketing.settings WHERE stock_id = $1`, [A.id])).rows[0]
            .api_key as string;
        const saved = await post('/api/emailMarketingSettings/', settingsBody(A.id), 'editor');
        const read = await get(`/api/emailMarketingSettings/?id=${A.id}`, 'editor');
        for (const res of [saved, read]) {
          expect(res.status).toBe(200);
          expect(JSON.stringify(res.body)).not.toContain('key-us1');
          expect(res.body.settings).toMatchObject({ apiKey: API_KEY_MASK, apiKeySet: true });
        }
        const sealed = await storedKey();
        expect(sealed).toMatch(/^v1:[A-Za-z0-9_-]+$/);
        expect(sealed).not.toContain('key-us1');
        // The form saved back as shown (the mask), or with the key blank: the stored key stays.
        for (const apiKey of [API_KEY_MASK, '', '  ']) {
          const res = await post('/api/emailMarketingSettings/', settingsBody(A.id, { apiKey }), 'editor');
          expect(res.body.settings).toMatchObject({ apiKey: API_KEY_MASK, apiKeySet: true });
          expect(await storedKey()).toBe(sealed);
        }
        // A stock without a key: blank and not set.
        expect((await get(`/api/emailMarketingSettings/?id=${B.id}`, 'other')).body.settings).toMatchObject({
          apiKey: '',
          apiKeySet: false,
        });
      });

      it('refuses bad input with 400 and keeps what was saved', async () => {
        const before = await settingsOf(A.id);
        const bad = [
          {
            body: settingsBody(A.id, { replyTo: 'not an address' }),
            message: 'Invalid email address in reply to: not an address',
          },
          {
            body: settingsBody(A.id, { testEmailAddresses: 'ok@example.com, nope' }),
            message: 'Invalid email address in test email addresses: nope',
          },
          { body: { StockId: 'not-a-uuid', Settings: {} }, message: /StockId/ },
          { body: settingsBody(A.id, { provider: 'carrier-pigeon' }), message: /provider/ },
        ];
        for (const { body, message } of bad) {
          const res = await post('/api/emailMarketingSettings/', body, 'admin');
          expect(res.status).toBe(400);
          expect(res.body.errorMessage).toEqual(
            typeof message === 'string' ? message : expect.stringMatching(message),
          );
        }
        expect(await settingsOf(A.id)).toEqual(before);
      });

      it('test sends need both keys (the product API key and the email-marketing key)', async () => {
        sink.clear();
        // A blank product API key names no stock: the spec's message, for a stock-role user (the guard) and an
        // admin (who passes the guard) alike.
        for (const who of ['tester', 'admin']) {
          const noProductKey = await post(
            '/api/TestSendAnnouncement/sendTestEmail',
            specTestSendBody(N),
            who,
          );
          expect({ who, status: noProductKey.status, body: noProductKey.body }).toEqual({
            who,
            status: 400,
            body: expect.objectContaining({ errorMessage: BOTH_KEYS_MESSAGE }),
          });
        }
        // The spec's body carries no email-marketing key: the stock's saved one is used, and B has none saved.
        expect(
          (
            await post(
              '/api/emailMarketingSettings/',
              settingsBody(B.id, { apiKey: '', listId: 'demo-list' }),
              'admin',
            )
          ).status,
        ).toBe(200);
        const noSavedKey = await post(
          '/api/TestSendAnnouncement/sendTestEmail',
          specTestSendBody(B),
          'other',
        );
        expect(noSavedKey.status).toBe(400);
        expect(noSavedKey.body.errorMessage).toBe(BOTH_KEYS_MESSAGE);
        // A key typed but not saved (emailMarketingApiKey, this portal's addition) left blank: the same.
        const blankTyped = await post(
          '/api/TestSendAnnouncement/sendTestEmail',
          { ...specTestSendBody(A), emailMarketingApiKey: ' ' },
          'tester',
        );
        expect(blankTyped.status).toBe(400);
        expect(blankTyped.body.errorMessage).toBe(BOTH_KEYS_MESSAGE);
        // A product key no stock has: 404, whoever asks.
        for (const who of ['tester', 'admin']) {
          const unknown = await post(
            '/api/TestSendAnnouncement/sendTestEmail',
            specTestSendBody(A, { apiKey: 'no-stock-has-this-key' }),
            who,
          );
          expect({ who, status: unknown.status, message: unknown.body.errorMessage }).toEqual({
            who,
            status: 404,
            message: 'No stock has this product API key',
          });
        }
        expect(sink.mails).toHaveLength(0);
      });

      it("Send Test Email with exactly the spec's body: the product API key names the stock, its saved email-marketing key is used", async () => {
        expect(
          (
            await post(
              '/api/emailMarketingSettings/',
              settingsBody(C.id, {
                apiKey: 'demo-mailchimp-key-us1',
                listId: 'demo-list',
                testEmailAddresses: 'saved@campaign.example',
              }),
              'admin',
            )
          ).status,
        ).toBe(200);
        sink.clear();
        const res = await post('/api/TestSendAnnouncement/sendTestEmail', specTestSendBody(C), 'tester');
        expect(res.status).toBe(200);
        expect(res.body).toEqual({
          errorMessage: null,
          previewUrl: expect.stringMatching(/\/standin\/campaigns\/.+\/preview$/),
          message: 'Test sent successfully.',
        });
        // The test addresses as typed in the body, not as saved.
        const [mail] = await sink.waitFor((m) => m.length === 1, 'the test campaign mail');
        expect(mail.to).toEqual(['qa@campaign.example']);
        expect(mail.subject).toContain('Campaign Email');
      });

      it('a TestSendAnnouncement holder without ViewConfig test-sends by stock id: the stored product key is used, never shown', async () => {
        // The tester holds exactly TestSendAnnouncement on C: the client form leaves its product key out.
        const row = (await get('/api/clientDashboard/', 'tester')).body.stocks.find(
          (s: Stock) => s.id === C.id,
        );
        expect(row).toBeDefined();
        expect(row).not.toHaveProperty('apiKey');
        sink.clear();
        const byId = { ...specTestSendBody(C, { apiKey: '' }), stockId: C.id };
        const res = await post('/api/TestSendAnnouncement/sendTestEmail', byId, 'tester');
        expect(res.status).toBe(200);
        expect(res.body).toEqual({
          errorMessage: null,
          previewUrl: expect.stringMatching(/\/standin\/campaigns\/.+\/preview$/),
          message: 'Test sent successfully.',
        });
        expect(JSON.stringify(res.body)).not.toContain(C.apiKey);
        const [mail] = await sink.waitFor((m) => m.length === 1, 'the test campaign mail');
        expect(mail.to).toEqual(['qa@campaign.example']);
        expect(mail.subject).toContain('Campaign Email');
        // The stock id is checked like the key: no role on the stock is 403; a stock with no stored product
        // key still needs BOTH keys, for the tester and an admin alike.
        const foreign = await post('/api/TestSendAnnouncement/sendTestEmail', byId, 'other');
        expect(foreign.status).toBe(403);
        for (const who of ['tester', 'admin']) {
          const noStoredKey = await post(
            '/api/TestSendAnnouncement/sendTestEmail',
            { ...specTestSendBody(N), stockId: N.id },
            who,
          );
          expect({ who, status: noStoredKey.status, message: noStoredKey.body.errorMessage }).toEqual({
            who,
            status: 400,
            message: BOTH_KEYS_MESSAGE,
          });
        }
        expect(sink.mails).toHaveLength(1);
      });

      it("Send To Subscribers with the spec's body: admins only; the list is mailed, a list over 5 refused", async () => {
        sink.clear();
        const asTester = await post(
          '/api/TestSendAnnouncement/sendToSubscribers',
          specTestSendBody(C),
          'tester',
        );
        expect(asTester.status).toBe(403);
        const tooBig = await post(
          '/api/TestSendAnnouncement/sendToSubscribers',
          specTestSendBody(C, { listId: 'big-list' }),
          'admin',
        );
        expect(tooBig.status).toBe(400);
        expect(tooBig.body.errorMessage).toBe(sendToSubscribersLimitMessage(8));
        const res = await post('/api/TestSendAnnouncement/sendToSubscribers', specTestSendBody(C), 'admin');
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ errorMessage: null, message: 'Campaign created successfully.' });
        const mails = await sink.waitFor((m) => m.length === 3, 'the list mailed');
        expect(mails.map((m) => m.to[0]).sort()).toEqual([
          'investor.one@example.com',
          'investor.three@example.com',
          'investor.two@example.com',
        ]);
      });

      it('the subscriber count answers success false with the reason', async () => {
        const res = await get(
          `/api/EmailMarketingSubscriberCount?apiKey=&listId=list-1&clientId=&stockId=${B.id}`,
          'other',
        );
        expect(res.status).toBe(200);
        expect(res.body).toEqual({
          success: false,
          count: null,
          message: 'Enter the email-marketing API key',
        });
      });

      it('the subscriber count without a key in the URL uses the stock’s stored key', async () => {
        // C's stored key is the stand-in's demo key (saved above); demo-list has 3 members.
        for (const query of [
          `listId=demo-list&stockId=${C.id}`,
          `apiKey=&listId=demo-list&clientId=&stockId=${C.id}`,
        ]) {
          const res = await get(`/api/EmailMarketingSubscriberCount?${query}`, 'admin');
          expect({ query, body: res.body }).toEqual({
            query,
            body: { success: true, count: 3, message: '3 subscribers' },
          });
        }
        // The mask in the query names the stored key too (a spec client sends back what it read).
        const masked = await get(
          `/api/EmailMarketingSubscriberCount?apiKey=${encodeURIComponent(API_KEY_MASK)}&listId=demo-list&stockId=${C.id}`,
          'admin',
        );
        expect(masked.body).toEqual({ success: true, count: 3, message: '3 subscribers' });
      });

      it('refuses a provider key in the query string (400 saying where to send it) and counts with one in the X-Provider-Api-Key header', async () => {
        const count = (query: string) => get(`/api/EmailMarketingSubscriberCount?${query}`, 'admin');
        for (const key of ['wrong-key-us1', 'demo-mailchimp-key-us1']) {
          const inUrl = await count(`apiKey=${key}&listId=demo-list&clientId=&stockId=${C.id}`);
          expect({ key, status: inUrl.status, body: inUrl.body }).toMatchObject({
            key,
            status: 400,
            body: { errorMessage: `apiKey: ${PROVIDER_KEY_IN_URL_MESSAGE}` },
          });
        }
        // In the header the key as typed is counted with, not the stored one (a wrong one: the provider says so).
        const typed = (key: string) =>
          count(`listId=demo-list&stockId=${C.id}`).set(PROVIDER_API_KEY_HEADER, key);
        expect((await typed('wrong-key-us1')).body).toMatchObject({ success: false, count: null });
        expect((await typed('demo-mailchimp-key-us1')).body).toEqual({
          success: true,
          count: 3,
          message: '3 subscribers',
        });
        const tooLong = await typed('k'.repeat(201));
        expect({ status: tooLong.status, errorMessage: tooLong.body.errorMessage }).toEqual({
          status: 400,
          errorMessage: `${PROVIDER_API_KEY_HEADER}: must be at most 200 characters`,
        });
      });
    });

    describe('the system test email', () => {
      it('reaches the SMTP server', async () => {
        sink.clear();
        const res = await post('/api/admin/sendEmail', { email: 'ops@portal.example' }, 'admin');
        expect(res.body).toEqual({ success: true, errorMessage: null });
        expect(sink.to('ops@portal.example').map((m) => m.subject)).toEqual(['IR Portal test email']);
        expect((await post('/api/admin/sendEmail', { email: 'nobody' }, 'admin')).status).toBe(400);
        const missing = await post('/api/admin/sendEmail', {}, 'admin');
        expect(missing.status).toBe(400);
        expect(missing.body.errorMessage).toBe('email: Required');
      });
    });

    describe('subscribers: widget subscribe, confirm, one-click unsubscribe, and a sent announcement', () => {
      const address = `investor-${RUN.toLowerCase()}@example.com`;
      let unsubscribeToken = '';

      it('subscribes through the widget API and confirms with the mailed link', async () => {
        sink.clear();
        for (const bad of ['', 'nope', 'x@y']) {
          const res = await post(`/api/widget/subscribe?apiKey=${A.apiKey}`, { email: bad });
          expect(res.status).toBe(400);
          expect(res.body.errorMessage).toBe(INVALID_SUBSCRIBER_EMAIL_MESSAGE);
        }
        expect((await post('/api/widget/subscribe?apiKey=no-such-key', { email: address })).status).toBe(401);
        const res = await post(`/api/widget/subscribe?apiKey=${A.apiKey}`, { email: address }).set(
          'User-Agent',
          'IR site widget',
        );
        expect(res.status).toBe(200);
        expect(res.headers['access-control-allow-origin']).toBe('*');
        expect(res.body).toEqual({ success: true, status: 'pending', message: CHECK_INBOX_MESSAGE });
        const [mail] = await sink.waitFor((m) => m.length === 1, 'the confirmation mail');
        const token = new RegExp(`${PUBLIC_BASE_URL}/subscription/confirm/([A-Za-z0-9_-]+)`).exec(
          mail.text,
        )![1];
        const confirmed = await post(`/api/subscription/confirm/${token}`, {});
        expect(confirmed.status).toBe(200);
        expect(confirmed.body).toMatchObject({
          success: true,
          status: 'confirmed',
          email: address,
          combinedTicker: A.combinedTicker,
          companyName: 'Alpha Email',
        });
        expect((await post(`/api/subscription/confirm/${token}`, {})).status).toBe(404);

        const list = SubscribersResponseSchema.parse(
          (await get(`/api/admin/subscribers?combinedTicker=${A.combinedTicker}`, 'admin')).body,
        );
        expect(list.counts).toEqual({ pending: 0, confirmed: 1, unsubscribed: 0 });
        expect(list.subscribers[0]).toMatchObject({
          email: address,
          status: 'confirmed',
          consentUserAgent: 'IR site widget',
        });
        unsubscribeToken = new RegExp(
          `${PUBLIC_BASE_URL}/api/subscription/unsubscribe/([A-Za-z0-9_-]+)`,
        ).exec(String(mail.rawHeaders['list-unsubscribe']))![1];
      });

      it('answers the same for a new, a pending and a confirmed address (no enumeration)', async () => {
        const fresh = `fresh-${RUN.toLowerCase()}@example.com`;
        sink.clear();
        const answers = [];
        for (const email of [fresh, fresh, address]) {
          const res = await post(`/api/widget/subscribe?apiKey=${A.apiKey}`, { email });
          answers.push({ status: res.status, body: res.body });
        }
        const same = {
          status: 200,
          body: { success: true, status: 'pending', message: CHECK_INBOX_MESSAGE },
        };
        expect(answers).toEqual([same, same, same]);
        // The new and the pending address get a confirmation mail each; the confirmed one nothing.
        await sink.waitFor(
          (m) => m.filter((x) => x.to.includes(fresh)).length === 2,
          'two confirmation mails',
        );
        expect(sink.to(address)).toEqual([]);
      });

      /** An announcement saved on A and sent from the Announcements routes, as staff do; its sendGuid. */
      async function saveAndSend(headline: string) {
        const doc = await PDFDocument.create();
        doc.addPage([300, 200]).drawText(headline.slice(0, 30), { x: 20, y: 100, size: 12 });
        const saved = await http
          .post(`/api/Announcement/save/${A.combinedTicker}`)
          .set('Cookie', sessions.admin.cookie)
          .set('X-XSRF-TOKEN', sessions.admin.csrf)
          .field('headline', headline)
          .field('date', '22 Mar 2025 8:50 AM')
          .field('priceSensitive', 'true')
          .attach('file', Buffer.from(await doc.save()), {
            filename: 'q.pdf',
            contentType: 'application/pdf',
          });
        expect(saved.status).toBe(200);
        const { sendGuid } = saved.body.announcement as { sendGuid: string };
        expect((await post(`/api/Announcement/send/${A.combinedTicker}`, { sendGuid }, 'admin')).status).toBe(
          200,
        );
        return sendGuid;
      }

      /** The announcement as the Announcements route lists it, once it shows it sent. */
      async function shownSent(sendGuid: string) {
        const listed = await until(
          async () =>
            AnnouncementListSchema.parse(
              (await get(`/api/Announcement/list/${A.combinedTicker}`, 'admin')).body,
            ),
          (l) => l.announcements.some((a) => a.sendGuid === sendGuid && a.sent),
          'the announcement marked sent',
        );
        return listed.announcements.find((a) => a.sendGuid === sendGuid)!;
      }

      it('sends an announcement from the Announcements route to the subscriber; sent and sendHistory follow', async () => {
        sink.clear();
        const sendGuid = await saveAndSend('Quarterly Activities Report');
        const [mail] = await sink.waitFor(
          (m) => m.some((x) => x.to.includes(address)),
          'the announcement mail',
        );
        expect(mail.subject).toBe(`Alpha Email (${A.ticker}): Price sensitive: Quarterly Activities Report`);
        expect(mail.text).toContain('22 Mar 2025 8:50 AM (Sydney time)');
        expect(mail.html).toContain(`${PUBLIC_BASE_URL}/api/Announcement/pdf/${sendGuid}`);
        const announcement = await shownSent(sendGuid);
        expect(announcement.sendHistory.map((h) => h.emailAddress)).toEqual([address]);
        // Released in 2025: old news sent by hand has no alert latency (fresh ones do: the service's test).
        expect(announcement.alertLatencyMs).toBeNull();
      });

      it('one click unsubscribes (RFC 8058 form body), idempotently; the page reads which company, not the address', async () => {
        const info = await get(`/api/subscription/unsubscribe/${unsubscribeToken}`);
        expect(info.body).toMatchObject({ success: true, companyName: 'Alpha Email', status: 'confirmed' });
        expect(info.body).not.toHaveProperty('email');
        const first = await http
          .post(`/api/subscription/unsubscribe/${unsubscribeToken}`)
          .type('form')
          .send('List-Unsubscribe=One-Click');
        expect(first.status).toBe(200);
        expect(first.body).toMatchObject({ companyName: 'Alpha Email', status: 'unsubscribed' });
        expect(JSON.stringify(first.body)).not.toContain(address);
        const again = await http
          .post(`/api/subscription/unsubscribe/${unsubscribeToken}`)
          .type('form')
          .send('List-Unsubscribe=One-Click');
        expect(again.body).toEqual(first.body);
        expect((await http.post('/api/subscription/unsubscribe/not-a-real-token-at-all')).status).toBe(404);
        const list = SubscribersResponseSchema.parse(
          (await get(`/api/admin/subscribers?combinedTicker=${A.combinedTicker}`, 'admin')).body,
        );
        // (The pending one is the no-enumeration test's new address.)
        expect(list.counts).toEqual({ pending: 1, confirmed: 0, unsubscribed: 1 });
      });

      it('no mail after it: the next announcement reaches the other subscriber, not the address that left', async () => {
        sink.clear();
        const stayer = `stayer-${RUN.toLowerCase()}@example.com`;
        expect((await post(`/api/widget/subscribe?apiKey=${A.apiKey}`, { email: stayer })).status).toBe(200);
        const [confirmation] = await sink.waitFor(
          (m) => m.some((x) => x.to.includes(stayer)),
          'the confirmation mail',
        );
        const token = new RegExp(`${PUBLIC_BASE_URL}/subscription/confirm/([A-Za-z0-9_-]+)`).exec(
          confirmation.text,
        )![1];
        expect((await post(`/api/subscription/confirm/${token}`, {})).status).toBe(200);

        const sendGuid = await saveAndSend('Half Year Results');
        // The send is over when it has no delivery left open (a delivery is marked after the SMTP server
        // accepted it): from here no further mail of it can arrive, so what it left out is final.
        const deliveries = await settledDeliveries(db, { sendGuid });
        expect(deliveries).toEqual([{ email: stayer, status: 'sent' }]);
        expect(sink.to(stayer).filter((m) => m.subject.endsWith('Half Year Results'))).toHaveLength(1);
        expect(sink.to(address)).toEqual([]);
        const sent = await shownSent(sendGuid);
        expect(sent.sendHistory.map((h) => h.emailAddress)).toEqual([stayer]);
      });

      it("pages a stock's subscribers: the newest SUBSCRIBER_PAGE_SIZE, then the rest after `next`, counts whole", async () => {
        const P = await createStockAsAdmin(post, { ticker: `EP${RUN}`, companyName: 'Paging Email' });
        const total = SUBSCRIBER_PAGE_SIZE + 10;
        await db.query(
          `INSERT INTO email_marketing.subscribers (stock_id, email, status, subscribed_at)
           SELECT $1, 'paged' || g || '@example.com', CASE WHEN g % 2 = 0 THEN 'confirmed' ELSE 'pending' END,
                  timestamptz '2024-01-01T00:00:00Z' + (g / 4) * interval '1 hour'
             FROM generate_series(1, $2::int) g`,
          [P.id, total],
        );
        const path = `/api/admin/subscribers?combinedTicker=${P.combinedTicker}`;
        const first = SubscribersResponseSchema.parse((await get(path, 'admin')).body);
        expect(first.subscribers).toHaveLength(SUBSCRIBER_PAGE_SIZE);
        expect(first.counts).toEqual({ pending: total / 2, confirmed: total / 2, unsubscribed: 0 });
        expect(first.next).toBe(first.subscribers.at(-1)?.id);
        const rest = SubscribersResponseSchema.parse(
          (await get(`${path}&after=${first.next}`, 'admin')).body,
        );
        expect(rest).toMatchObject({ counts: first.counts, next: null });
        const all = [...first.subscribers, ...rest.subscribers];
        expect(new Set(all.map((x) => x.email)).size).toBe(total);
        const times = all.map((x) => x.subscribedAt);
        expect(times).toEqual([...times].sort().reverse());

        expect((await get(`${path}&after=${first.next}`, 'reports')).status).toBe(403);
        const gone = await get(`${path}&after=${A.id}`, 'admin');
        expect({ status: gone.status, message: gone.body.errorMessage }).toEqual({
          status: 404,
          message: 'The subscribers changed since this list was read: reload the page to see them',
        });
        const malformed = await get(`${path}&after=x`, 'admin');
        expect({ status: malformed.status, message: malformed.body.errorMessage }).toEqual({
          status: 400,
          message: 'after: must be the `next` of a previous page',
        });
      });
    });
  });
}
