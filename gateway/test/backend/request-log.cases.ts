import { INestApplication } from '@nestjs/common';
import { API_KEY_MASK, PROVIDER_API_KEY_HEADER, Stock } from '@irp/proto';
import { captureLogs, LogCapture, SmtpSink } from '@irp/platform/testing';
import request from 'supertest';
import { requestLog } from '../../src/common/request-context.middleware';
import {
  clientOf,
  createStockWithProviderKey,
  MailBackend,
  PUBLIC_BASE_URL,
  runId,
  Session,
  SharedBackend,
  signIn,
  startTestGateway,
} from '../gateway-harness';

const RUN = runId();
const PROVIDER_KEY = 'demo-mailchimp-key-us1';

/**
 * Secrets out of URLs and logs (issue 18): the gateway's own log (pino, read in this process) after the
 * widget, subscriber-count, subscribe, confirm and unsubscribe calls holds no product API key, provider
 * key, link token or password, though every request is logged.
 */
export function requestLogCases(shared: SharedBackend) {
  describe('the request log holds no key, token or password', () => {
    let backend: MailBackend;
    let gateway: INestApplication;
    let http: ReturnType<typeof request>;
    let sink: SmtpSink;
    const sessions: Record<string, Session> = {};
    let get: ReturnType<typeof clientOf>['get'];
    let post: ReturnType<typeof clientOf>['post'];
    let stock: Stock;
    let capture: LogCapture | undefined;

    beforeAll(async () => {
      backend = shared.backend();
      ({ sink } = backend);
      ({ gateway, http } = await startTestGateway());
      const client = clientOf(http, sessions);
      ({ get, post } = client);
      sessions.admin = await signIn(http, 'admin', 'Admin!2026');
      stock = await createStockWithProviderKey(
        client,
        { ticker: `RL${RUN}`, companyName: 'Log Minerals' },
        PROVIDER_KEY,
      );
    }, 180_000);

    afterAll(async () => {
      capture?.stop();
      await gateway?.close();
    });

    it('after widget, subscriber count, subscribe, confirm and unsubscribe calls', async () => {
      const productKey = stock.apiKey!;
      const email = `log-${RUN.toLowerCase()}@example.com`;
      sink.clear();
      capture = captureLogs([requestLog]);

      await signIn(http, 'admin', 'Admin!2026');
      // The widget's call, whatever it answers (the key is in its URL either way).
      await http.get(`/api/widget/stock?apiKey=${productKey}`);
      // The spec's form of the count, the key in the query (refused, and logged without it all the same),
      // the key in its header, and the web's (none: the stored key).
      const counts = [
        await get(
          `/api/EmailMarketingSubscriberCount?apiKey=${PROVIDER_KEY}&listId=demo-list&stockId=${stock.id}`,
          'admin',
        ),
        await get(`/api/EmailMarketingSubscriberCount?listId=demo-list&stockId=${stock.id}`, 'admin').set(
          PROVIDER_API_KEY_HEADER,
          PROVIDER_KEY,
        ),
        await get(`/api/EmailMarketingSubscriberCount?listId=demo-list&stockId=${stock.id}`, 'admin'),
      ];
      expect(counts.map((r) => [r.status, r.body.count])).toEqual([
        [400, undefined],
        [200, 3],
        [200, 3],
      ]);
      const settings = await get(`/api/emailMarketingSettings/?id=${stock.id}`, 'admin');
      expect(settings.body.settings.apiKey).toBe(API_KEY_MASK);

      expect((await post(`/api/widget/subscribe?apiKey=${productKey}`, { email })).status).toBe(200);
      const [mail] = await sink.waitFor((m) => m.some((x) => x.to.includes(email)), 'the confirmation mail');
      const confirmToken = new RegExp(`${PUBLIC_BASE_URL}/subscription/confirm/([A-Za-z0-9_-]+)`).exec(
        mail.text,
      )![1];
      const unsubscribeToken = new RegExp(
        `${PUBLIC_BASE_URL}/api/subscription/unsubscribe/([A-Za-z0-9_-]+)`,
      ).exec(String(mail.rawHeaders['list-unsubscribe']))![1];
      expect((await post(`/api/subscription/confirm/${confirmToken}`, {})).status).toBe(200);
      expect((await get(`/api/subscription/unsubscribe/${unsubscribeToken}`)).status).toBe(200);
      const oneClick = await http
        .post(`/api/subscription/unsubscribe/${unsubscribeToken}`)
        .type('form')
        .send('List-Unsubscribe=One-Click');
      expect(oneClick.status).toBe(200);
      // The web page of the link, and a wrong method on the API's (no route matched): logged without it too.
      await http.get(`/subscription/unsubscribe/${unsubscribeToken}`);
      await http.delete(`/api/subscription/confirm/${confirmToken}`);

      capture.stop();
      const log = capture.text();
      const requests = log.split('\n').filter((line) => line.includes('"msg":"request"'));
      expect(requests.length).toBeGreaterThanOrEqual(10);
      expect(log).toContain('/api/subscription/unsubscribe/REDACTED');
      expect(log).toContain('/api/widget/subscribe?apiKey=REDACTED');
      for (const secret of [productKey, PROVIDER_KEY, confirmToken, unsubscribeToken, 'Admin!2026'])
        expect({ secret, found: log.includes(secret) }).toEqual({ secret, found: false });
    });
  });
}
