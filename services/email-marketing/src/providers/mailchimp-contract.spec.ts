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
import { MailchimpProvider } from './mailchimp.provider';
import { CampaignContent, ProviderError } from './provider';

/** Mailchimp's own description of its Marketing API (vendor-descriptions/mailchimp/README.md). */
const DESCRIPTION = join(__dirname, '../../../../vendor-descriptions/mailchimp/marketing.openapi.json');
/** Every operation the Mailchimp-type adapter calls. */
const OPERATIONS = [
  'getListsId',
  'postCampaigns',
  'putCampaignsIdContent',
  'postCampaignsIdActionsTest',
  'postCampaignsIdActionsSend',
];

const content: CampaignContent = {
  subject: 'BHP Group (BHP): Quarterly Activities Report',
  title: 'BHP quarterly',
  html: '<h2>Quarterly Activities Report</h2>',
  text: 'Quarterly Activities Report',
};
const settings = (fields: Partial<EmailMarketingSettings> = {}): EmailMarketingSettings => ({
  ...EMPTY_EMAIL_MARKETING_SETTINGS,
  provider: 'mailchimp',
  ...DEMO_PROVIDER_ACCOUNTS.mailchimp,
  replyTo: 'ir@bhp.example',
  fromName: 'BHP IR',
  ...fields,
});
const clone = <T>(value: T): T => structuredClone(value);
type Body = Record<string, unknown>;

/**
 * The Mailchimp-type adapter and the providers stand-in against Mailchimp's published Marketing API
 * (ADR 0014): every call the adapter makes goes through a recording proxy to the stand-in; each request it
 * sent must be a request of its published operation, and each reply the stand-in gave (its errors too) that
 * operation's published reply. So neither drifts from Mailchimp's API unseen.
 */
describe('the Mailchimp-type adapter and stand-in against Mailchimp’s published API', () => {
  const rig = useVendorContract({
    load: () => VendorContract.load(DESCRIPTION, { operations: OPERATIONS }),
    startStandIn: () => startProvidersStandIn({ port: 0, host: '127.0.0.1' }),
  });
  const { exchangesOf, problemsOf } = rig;
  let mailchimp: MailchimpProvider;

  beforeAll(async () => {
    mailchimp = new MailchimpProvider({
      baseUrl: `${rig.proxy.url}/3.0`,
      timeoutMs: 5000,
      maxAttempts: 2,
      baseDelayMs: 10,
    });

    // Every call the adapter makes: the count, a test send and a send, plain and with a saved segment and
    // a template; then the refusals Mailchimp publishes as problem details (an unknown list, a bad key).
    expect(await mailchimp.subscriberCount(settings())).toBe(3);
    await mailchimp.testSend(settings(), content, ['ir@bhp.example']);
    await mailchimp.send(settings(), content);
    await mailchimp.send(settings({ savedSegmentId: '101', templateId: '2001' }), content);
    await expect(mailchimp.subscriberCount(settings({ listId: 'no-such-list' }))).rejects.toThrow(
      ProviderError,
    );
    await expect(mailchimp.subscriberCount(settings({ apiKey: 'wrong-key-us1' }))).rejects.toThrow(
      ProviderError,
    );
    // Busy: Mailchimp's 429 (its connection limit), as problem details, then the retry that succeeds.
    rig.standIn.failNext(1, 429, 0);
    expect(await mailchimp.subscriberCount(settings())).toBe(3);
  }, VENDOR_CONTRACT_SETUP_MS);

  it.each([
    ['getListsId', 'GET', /^\/3\.0\/lists\/[^/]+$/],
    ['postCampaigns', 'POST', /^\/3\.0\/campaigns$/],
    ['putCampaignsIdContent', 'PUT', /^\/3\.0\/campaigns\/[^/]+\/content$/],
    ['postCampaignsIdActionsTest', 'POST', /^\/3\.0\/campaigns\/[^/]+\/actions\/test$/],
    ['postCampaignsIdActionsSend', 'POST', /^\/3\.0\/campaigns\/[^/]+\/actions\/send$/],
  ])(
    '%s: each request the adapter sent and each reply the stand-in gave is as published',
    (id, method, path) => {
      const exchanges = exchangesOf(method, path);
      expect(exchanges.length).toBeGreaterThan(0);
      for (const exchange of exchanges)
        expect(problemsOf(exchange)).toEqual({ operationId: id, problems: [] });
    },
  );

  it('the refusals and the busy answer are Mailchimp’s problem details (application/problem+json)', () => {
    const refused = rig.proxy.exchanges.filter((e) => e.response.status >= 400);
    expect(refused.map((e) => e.response.status).sort()).toEqual([401, 404, 429]);
    for (const exchange of refused) {
      expect(exchange.response.headers['content-type']).toContain('application/problem+json');
      expect(problemsOf(exchange).problems).toEqual([]);
    }
    expect(refused.find((e) => e.response.status === 429)!.response.headers['retry-after']).toBe('0');
  });

  it('a saved segment and a template are sent as the integers Mailchimp publishes', () => {
    const [, , segmented] = exchangesOf('POST', /^\/3\.0\/campaigns$/);
    expect(segmented!.request.body).toMatchObject({
      recipients: { list_id: 'demo-list', segment_opts: { saved_segment_id: 101 } },
      settings: { template_id: 2001 },
    });
    const [, , templated] = exchangesOf('PUT', /\/content$/);
    expect(templated!.request.body).toEqual({
      template: { id: 2001, sections: { body: content.html } },
    });
  });

  describe('shown to fail on a deliberate mismatch', () => {
    it('a reply with a field renamed (stats.member_count -> stats.members)', () => {
      const [count] = exchangesOf('GET', /^\/3\.0\/lists\/demo-list$/);
      const body = clone(count!.response.body) as { stats: Body };
      body.stats.members = body.stats.member_count;
      delete body.stats.member_count;
      expect(rig.contract.validateResponse('getListsId', { status: 200, body })).toEqual([
        'getListsId 200: /stats must NOT have additional properties (members)',
      ]);
    });

    it('a request with a field the vendor does not take (settings.subject)', () => {
      const [sent] = exchangesOf('POST', /^\/3\.0\/campaigns$/);
      const request = clone({ ...sent!.request, headers: { ...sent!.request.headers } });
      (request.body as { settings: Body }).settings.subject = 'BHP';
      expect(rig.contract.validateRequest(request).problems).toEqual([
        'postCampaigns: /requestBody/settings must NOT have additional properties (subject)',
      ]);
    });

    it('a test send without its send type', () => {
      const [sent] = exchangesOf('POST', /\/actions\/test$/);
      const request = clone({ ...sent!.request, headers: { ...sent!.request.headers } });
      delete (request.body as Body).send_type;
      expect(rig.contract.validateRequest(request).problems).toEqual([
        "postCampaignsIdActionsTest: /requestBody must have required property 'send_type'",
      ]);
    });

    it('an error reply in another shape (Campaign Monitor’s { Code, Message })', () => {
      expect(
        rig.contract.validateResponse('getListsId', {
          status: 404,
          body: { Code: 101, Message: 'Invalid ListID' },
        }),
      ).toEqual(
        expect.arrayContaining([
          "getListsId 404: / must have required property 'detail'",
          'getListsId 404: / must NOT have additional properties (Code)',
        ]),
      );
    });
  });

  /**
   * The adapter reads Mailchimp's published problem-details example (Mailchimp publishes its examples on
   * each property), served as it is in place of the API.
   */
  describe('the adapter reads Mailchimp’s published error example', () => {
    let server: AnsweringServer;
    let fromExamples: MailchimpProvider;
    let status = 404;
    /** A reply in place of the published example (a vendor answering what it does not publish). */
    let instead: unknown;

    beforeAll(async () => {
      server = await startAnsweringServer(() => ({
        status,
        contentType: instead === undefined ? 'application/problem+json' : 'application/json',
        body: instead ?? rig.contract.propertyExample('getListsId', status),
      }));
      fromExamples = new MailchimpProvider({
        baseUrl: `${server.url}/3.0`,
        timeoutMs: 5000,
        maxAttempts: 2,
        baseDelayMs: 10,
      });
    });
    afterAll(() => server?.close());

    it('a refusal: its title and detail logged under the reference staff read, not retried', async () => {
      const published = rig.contract.propertyExample('getListsId', 404) as { title: string; detail: string };
      expect(published).toMatchObject({ title: expect.any(String), detail: expect.any(String) });
      status = 404;
      const logs = captureLogs();
      const error = (await fromExamples
        .subscriberCount(settings())
        .catch((e: unknown) => e)) as ProviderError;
      logs.stop();
      expect(error).toMatchObject({ status: 404, retryable: false });
      expect(error.message).toMatch(/^The email-marketing service has no such list or template \(reference/);
      expect(loggedUnderReference(logs, error.message).vendorMessage).toBe(
        `${published.title}: ${published.detail}`,
      );
    });

    it('a list without its member count: a clear error naming the field, never a TypeError', async () => {
      status = 200;
      instead = { id: 'demo-list', stats: { members: 3 } };
      try {
        const error = (await fromExamples
          .subscriberCount(settings())
          .catch((e: unknown) => e)) as ProviderError;
        expect(error).toBeInstanceOf(ProviderError);
        expect(error.retryable).toBe(true);
        expect(error.message).toMatch(
          /^The email-marketing service's answer could not be used: .* answered a body its API does not describe \(stats\.member_count: /,
        );
      } finally {
        instead = undefined;
      }
    });

    it('a server error: retried, then "Please try again later", its words in the log under the reference', async () => {
      const published = rig.contract.propertyExample('getListsId', 500) as { title: string; detail: string };
      status = 500;
      const logs = captureLogs();
      const error = (await fromExamples
        .subscriberCount(settings())
        .catch((e: unknown) => e)) as ProviderError;
      logs.stop();
      expect(error).toBeInstanceOf(ProviderError);
      expect(error.retryable).toBe(true);
      expect(error.message).not.toContain(published.detail);
      expect(error.message).toContain('after 2 attempts. Please try again later.');
      expect(loggedUnderReference(logs, error.message).vendorMessage).toBe(
        `${published.title}: ${published.detail}`,
      );
    });
  });
});
