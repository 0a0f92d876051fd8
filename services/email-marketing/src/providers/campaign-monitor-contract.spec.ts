import { join } from 'node:path';
import { DEMO_PROVIDER_ACCOUNTS, EMPTY_EMAIL_MARKETING_SETTINGS, EmailMarketingSettings } from '@irp/proto';
import {
  AnsweringServer,
  captureLogs,
  loggedUnderReference,
  startAnsweringServer,
  useVendorContract,
  VendorContract,
  VENDOR_CONTRACT_SETUP_MS,
} from '@irp/platform/testing';
import { startProvidersStandIn } from '@irp/standins/email-providers';
import { CampaignMonitorProvider } from './campaign-monitor.provider';
import { CampaignContent, ProviderError } from './provider';

/**
 * Campaign Monitor publishes no machine-readable description: this one is written from its official client
 * library and that library's recorded responses, each field traced (vendor-descriptions/campaign-monitor).
 */
const DESCRIPTION = join(
  __dirname,
  '../../../../vendor-descriptions/campaign-monitor/campaign-monitor.openapi.yaml',
);
/** Every operation the Campaign-Monitor-type adapter calls. */
const OPERATIONS = [
  'getListStats',
  'createCampaignFromTemplate',
  'getClientDrafts',
  'sendCampaignPreview',
  'sendCampaign',
  'getCampaignSummary',
];

const content: CampaignContent = {
  subject: 'BHP Group (BHP): Quarterly Activities Report',
  title: 'BHP quarterly',
  html: '<h2>Quarterly Activities Report</h2>',
  text: 'Quarterly Activities Report',
};
const settings = (fields: Partial<EmailMarketingSettings> = {}): EmailMarketingSettings => ({
  ...EMPTY_EMAIL_MARKETING_SETTINGS,
  provider: 'campaign-monitor',
  ...DEMO_PROVIDER_ACCOUNTS.campaignMonitor,
  templateId: 'cm-template',
  replyTo: 'ir@bhp.example',
  fromName: 'BHP IR',
  ...fields,
});
const clone = <T>(value: T): T => structuredClone(value);
type Body = Record<string, unknown>;

/**
 * The Campaign-Monitor-type adapter and the providers stand-in against the sourced description (ADR 0014):
 * every call goes through a recording proxy to the stand-in; each request must be what Campaign Monitor's
 * own client sends, each reply (its `{ Code, Message }` errors too) what that client was recorded reading.
 */
describe('the Campaign-Monitor-type adapter and stand-in against Campaign Monitor’s API', () => {
  const rig = useVendorContract({
    load: () => VendorContract.load(DESCRIPTION, { operations: OPERATIONS }),
    startStandIn: () => startProvidersStandIn({ port: 0, host: '127.0.0.1' }),
  });
  const { exchangesOf, problemsOf } = rig;
  let campaignMonitor: CampaignMonitorProvider;

  beforeAll(async () => {
    campaignMonitor = new CampaignMonitorProvider({
      baseUrl: `${rig.proxy.url}/api/v3.3`,
      timeoutMs: 5000,
      maxAttempts: 2,
      baseDelayMs: 10,
    });

    // Every call the adapter makes: the count, a test send (with the drafts' preview link) and a send (with
    // its summary); then Campaign Monitor's refusals (a bad key, an unknown list) and a busy answer.
    expect(await campaignMonitor.subscriberCount(settings())).toBe(4);
    await campaignMonitor.testSend(settings(), content, ['ir@bhp.example']);
    await campaignMonitor.send(settings(), content);
    await expect(campaignMonitor.subscriberCount(settings({ apiKey: 'wrong' }))).rejects.toThrow(
      ProviderError,
    );
    await expect(campaignMonitor.subscriberCount(settings({ listId: 'no-such-list' }))).rejects.toThrow(
      ProviderError,
    );
    rig.standIn.failNext(1, 429, 0);
    expect(await campaignMonitor.subscriberCount(settings())).toBe(4);
  }, VENDOR_CONTRACT_SETUP_MS);

  it.each([
    ['getListStats', 'GET', /^\/api\/v3\.3\/lists\/[^/]+\/stats\.json$/],
    ['createCampaignFromTemplate', 'POST', /^\/api\/v3\.3\/campaigns\/[^/]+\/fromtemplate\.json$/],
    ['getClientDrafts', 'GET', /^\/api\/v3\.3\/clients\/[^/]+\/drafts\.json$/],
    ['sendCampaignPreview', 'POST', /^\/api\/v3\.3\/campaigns\/[^/]+\/sendpreview\.json$/],
    ['sendCampaign', 'POST', /^\/api\/v3\.3\/campaigns\/[^/]+\/send\.json$/],
    ['getCampaignSummary', 'GET', /^\/api\/v3\.3\/campaigns\/[^/]+\/summary\.json$/],
  ])(
    '%s: each request the adapter sent and each reply the stand-in gave is as described',
    (id, method, path) => {
      const exchanges = exchangesOf(method, path);
      expect(exchanges.length).toBeGreaterThan(0);
      for (const exchange of exchanges)
        expect(problemsOf(exchange)).toEqual({ operationId: id, problems: [] });
    },
  );

  it('the refusals and the busy answer are Campaign Monitor’s { Code, Message }', () => {
    const refused = rig.proxy.exchanges.filter((e) => e.response.status >= 400);
    expect(refused.map((e) => e.response.status).sort()).toEqual([401, 404, 429]);
    for (const exchange of refused) {
      expect(exchange.response.body).toMatchObject({ Code: expect.any(Number), Message: expect.any(String) });
      expect(problemsOf(exchange).problems).toEqual([]);
    }
  });

  it('authenticates as the official client does: the API key and x, Basic', () => {
    for (const exchange of rig.proxy.exchanges.filter((e) => e.response.status !== 401))
      expect(exchange.request.headers.authorization).toBe(
        `Basic ${Buffer.from(`${DEMO_PROVIDER_ACCOUNTS.campaignMonitor.apiKey}:x`).toString('base64')}`,
      );
  });

  describe('shown to fail on a deliberate mismatch', () => {
    it('a reply with a field renamed (TotalActiveSubscribers -> ActiveSubscribers)', () => {
      const [stats] = exchangesOf('GET', /\/stats\.json$/);
      const body = clone(stats!.response.body) as Body;
      body.ActiveSubscribers = body.TotalActiveSubscribers;
      delete body.TotalActiveSubscribers;
      expect(rig.contract.validateResponse('getListStats', { status: 200, body })).toEqual([
        'getListStats 200: / must NOT have additional properties (ActiveSubscribers)',
      ]);
    });

    it('a request with a field the official client does not send (TemplateContent.Body)', () => {
      const [sent] = exchangesOf('POST', /\/fromtemplate\.json$/);
      const request = clone({ ...sent!.request, headers: { ...sent!.request.headers } });
      (request.body as { TemplateContent: Body }).TemplateContent.Body = content.html;
      expect(rig.contract.validateRequest(request).problems).toEqual([
        'createCampaignFromTemplate: /requestBody/TemplateContent must NOT have additional properties (Body)',
      ]);
    });

    it('a send without its send date', () => {
      const [sent] = exchangesOf('POST', /\/send\.json$/);
      const request = clone({ ...sent!.request, headers: { ...sent!.request.headers } });
      delete (request.body as Body).SendDate;
      expect(rig.contract.validateRequest(request).problems).toEqual([
        "sendCampaign: /requestBody must have required property 'SendDate'",
      ]);
    });

    it('an error in another shape (Mailchimp’s problem details)', () => {
      expect(
        rig.contract.validateResponse('getListStats', {
          status: 404,
          body: { type: 'about:blank', title: 'Resource Not Found', status: 404, detail: 'x', instance: 'y' },
        }),
      ).toEqual(
        expect.arrayContaining([
          "getListStats 404: / must have required property 'Code'",
          'getListStats 404: / must NOT have additional properties (type)',
        ]),
      );
    });
  });

  /** The adapter reads the recorded responses the description carries as examples, served as they are. */
  describe('the adapter reads the recorded responses', () => {
    let server: AnsweringServer;
    let fromExamples: CampaignMonitorProvider;
    let refuse = false;
    const example = (operationId: string, status = 200) =>
      rig.contract.examples(operationId).responses.find((e) => e.status === status || e.status === undefined)!
        .value;

    beforeAll(async () => {
      const routes: Array<[RegExp, string, number]> = [
        [/\/lists\/[^/]+\/stats\.json$/, 'getListStats', 200],
        [/\/fromtemplate\.json$/, 'createCampaignFromTemplate', 201],
        [/\/drafts\.json$/, 'getClientDrafts', 200],
        [/\/summary\.json$/, 'getCampaignSummary', 200],
        [/\/(send|sendpreview)\.json$/, '', 200],
      ];
      server = await startAnsweringServer(({ path }) => {
        const [, operationId, status] = routes.find(([pattern]) => pattern.test(path)) ?? [];
        if (refuse || status === undefined)
          return { status: refuse ? 400 : 404, body: example('getListStats', 0) };
        return { status, body: operationId ? example(operationId, status) : undefined };
      });
      fromExamples = new CampaignMonitorProvider({
        baseUrl: `${server.url}/api/v3.3`,
        timeoutMs: 5000,
        maxAttempts: 2,
        baseDelayMs: 10,
      });
    });
    afterAll(() => server?.close());

    it('the list statistics: its active subscribers', async () => {
      const published = example('getListStats') as { TotalActiveSubscribers: number };
      expect(await fromExamples.subscriberCount(settings())).toBe(published.TotalActiveSubscribers);
    });

    it('a send: the new campaign’s id and the summary’s web version', async () => {
      const published = example('getCampaignSummary') as { WebVersionURL: string };
      expect(await fromExamples.send(settings(), content)).toEqual({
        campaignId: example('createCampaignFromTemplate', 201),
        previewUrl: published.WebVersionURL,
      });
    });

    it('a test send: no preview link when the drafts do not list the campaign', async () => {
      expect(await fromExamples.testSend(settings(), content, ['qa@bhp.example'])).toEqual({
        campaignId: example('createCampaignFromTemplate', 201),
        previewUrl: null,
      });
    });

    it('a refusal: its Message and Code logged under the reference staff read, not retried', async () => {
      const published = example('getListStats', 0) as { Code: number; Message: string };
      refuse = true;
      try {
        const logs = captureLogs();
        const error = (await fromExamples.subscriberCount(settings()).catch((e: unknown) => e)) as Error;
        logs.stop();
        expect(error).toMatchObject({ status: 400, retryable: false });
        expect(error.message).toMatch(
          /^The email-marketing service refused the request \(HTTP 400, reference/,
        );
        expect(loggedUnderReference(logs, error.message).vendorMessage).toBe(
          `${published.Message} (code ${published.Code})`,
        );
      } finally {
        refuse = false;
      }
    });
  });
});
