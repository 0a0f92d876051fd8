import type { LookupFunction } from 'node:net';
import { EMPTY_EMAIL_MARKETING_SETTINGS, EmailMarketingSettings } from '@irp/proto';
import { SmtpSink, startSmtpSink } from '@irp/platform/testing';
import { ProvidersStandIn, startProvidersStandIn } from '@irp/standins/email-providers';
import { CampaignMonitorProvider } from './campaign-monitor.provider';
import { mailchimpBaseUrl, MailchimpProvider } from './mailchimp.provider';
import { CampaignContent, ProviderError } from './provider';
import { retryAfterMs } from './provider-http';

const content: CampaignContent = {
  subject: 'BHP Group (BHP): Quarterly Activities Report',
  title: 'BHP quarterly',
  html: '<h2>Quarterly Activities Report</h2>',
  text: 'Quarterly Activities Report',
};
const mc = (fields: Partial<EmailMarketingSettings> = {}): EmailMarketingSettings => ({
  ...EMPTY_EMAIL_MARKETING_SETTINGS,
  provider: 'mailchimp',
  apiKey: 'demo-mailchimp-key-us1',
  listId: 'demo-list',
  replyTo: 'ir@bhp.example',
  fromName: 'BHP IR',
  ...fields,
});
const cm = (fields: Partial<EmailMarketingSettings> = {}): EmailMarketingSettings => ({
  ...EMPTY_EMAIL_MARKETING_SETTINGS,
  provider: 'campaign-monitor',
  apiKey: 'demo-campaign-monitor-key',
  listId: 'cm-list',
  clientId: 'demo-client',
  templateId: 'cm-template',
  replyTo: 'ir@bhp.example',
  fromName: 'BHP IR',
  ...fields,
});

/** Both adapters against the providers' stand-in over real HTTP, its campaigns mailed to a real SMTP sink. */
describe('email-marketing providers', () => {
  let standIn: ProvidersStandIn;
  let sink: SmtpSink;
  let mailchimp: MailchimpProvider;
  let campaignMonitor: CampaignMonitorProvider;
  const options = () => ({ timeoutMs: 3000, maxAttempts: 3, baseDelayMs: 10 });

  beforeAll(async () => {
    sink = await startSmtpSink();
    standIn = await startProvidersStandIn({ smtp: { host: '127.0.0.1', port: sink.port } });
    mailchimp = new MailchimpProvider({ ...options(), baseUrl: `${standIn.url}/3.0` });
    campaignMonitor = new CampaignMonitorProvider({ ...options(), baseUrl: `${standIn.url}/api/v3.3` });
  });
  afterAll(async () => {
    await standIn?.close();
    await sink?.close();
  });
  beforeEach(() => sink.clear());

  it('finds the data centre in a Mailchimp key', () => {
    expect(mailchimpBaseUrl('abc123-us21')).toBe('https://us21.api.mailchimp.com/3.0');
    expect(() => mailchimpBaseUrl('no-dc-here!')).toThrow(ProviderError);
  });

  it('reads Retry-After in seconds or as a date, capped', () => {
    expect(retryAfterMs('2')).toBe(2000);
    expect(retryAfterMs('999')).toBe(30_000);
    expect(retryAfterMs(null)).toBeUndefined();
    expect(retryAfterMs(new Date(Date.now() + 1000).toUTCString())).toBeLessThanOrEqual(1000);
  });

  it("counts a list's subscribers with either provider", async () => {
    expect(await mailchimp.subscriberCount(mc())).toBe(3);
    expect(await mailchimp.subscriberCount(mc({ listId: 'big-list' }))).toBe(8);
    expect(await campaignMonitor.subscriberCount(cm())).toBe(4);
  });

  it("refuses in our words with a reference, never the provider's: bad key, unknown list; without calling when a key is missing", async () => {
    const before = standIn.requests();
    const reference = /\(reference [0-9a-f]{8}\)$/;
    await expect(mailchimp.subscriberCount(mc({ apiKey: 'wrong-us1' }))).rejects.toMatchObject({
      status: 401,
      retryable: false,
      message: expect.stringMatching(
        /^The email-marketing service refused the API key \(reference [0-9a-f]{8}\)$/,
      ),
    });
    await expect(mailchimp.subscriberCount(mc({ listId: 'nope' }))).rejects.toThrow(
      /^The email-marketing service has no such list or template \(reference [0-9a-f]{8}\)$/,
    );
    const refused = (await campaignMonitor
      .subscriberCount(cm({ apiKey: 'wrong' }))
      .catch((e: unknown) => e)) as Error;
    expect(refused.message).toMatch(reference);
    expect(refused.message).not.toContain('Invalid API key');
    expect(standIn.requests() - before).toBe(3);
    await expect(mailchimp.subscriberCount(mc({ apiKey: '' }))).rejects.toThrow(
      'Enter the email-marketing API key',
    );
    await expect(campaignMonitor.testSend(cm({ clientId: '' }), content, ['qa@bhp.example'])).rejects.toThrow(
      'Enter the client id',
    );
    expect(standIn.requests() - before).toBe(3);
  });

  it('Mailchimp-type: a test send makes a campaign from the template and mails the test addresses', async () => {
    const result = await mailchimp.testSend(mc({ templateId: '7' }), content, [
      'qa@bhp.example',
      'cfo@bhp.example',
    ]);
    const mails = await sink.waitFor((m) => m.length === 2, 'two test mails');
    expect(mails.map((m) => m.to[0]).sort()).toEqual(['cfo@bhp.example', 'qa@bhp.example']);
    expect(mails[0].subject).toBe('[Test] BHP Group (BHP): Quarterly Activities Report');
    expect(mails[0].html).toContain('<h2>Quarterly Activities Report</h2>');
    expect(mails[0].html).toContain('Unsubscribe');
    const campaign = standIn.campaigns().find((c) => c.id === result.campaignId)!;
    expect(campaign).toMatchObject({
      listId: 'demo-list',
      templateId: '7',
      status: 'save',
      replyTo: 'ir@bhp.example',
    });
    const preview = await fetch(result.previewUrl!);
    expect(preview.status).toBe(200);
    expect(await preview.text()).toContain('Quarterly Activities Report');
  });

  it('Mailchimp-type: a send reaches the saved segment only', async () => {
    const result = await mailchimp.send(mc({ savedSegmentId: '101' }), content);
    await sink.waitFor((m) => m.length === 2, 'the segment mailed');
    expect(sink.mails.map((m) => m.to[0]).sort()).toEqual([
      'investor.one@example.com',
      'investor.two@example.com',
    ]);
    expect(standIn.campaigns().find((c) => c.id === result.campaignId)?.status).toBe('sent');
    await expect(mailchimp.send(mc({ savedSegmentId: '999' }), content)).rejects.toThrow(
      /^The email-marketing service refused the request \(HTTP 400, reference [0-9a-f]{8}\)$/,
    );
  });

  it('Campaign-Monitor-type: test send with a draft preview link, then a send to the list', async () => {
    const test = await campaignMonitor.testSend(cm(), content, ['qa@bhp.example']);
    expect(test.previewUrl).toBe(`${standIn.url}/standin/campaigns/${test.campaignId}/preview`);
    await sink.waitFor((m) => m.length === 1, 'the preview mail');
    sink.clear();
    const sent = await campaignMonitor.send(cm(), content);
    await sink.waitFor((m) => m.length === 4, 'the list mailed');
    expect(sent.previewUrl).toContain(sent.campaignId);
    await expect(campaignMonitor.send(cm({ templateId: '' }), content)).rejects.toThrow(
      'Enter the template id',
    );
  });

  it('retries 429 (honouring Retry-After) and 500, then succeeds', async () => {
    standIn.failNext(2, 429, 0);
    const before = standIn.requests();
    expect(await mailchimp.subscriberCount(mc())).toBe(3);
    expect(standIn.requests() - before).toBe(3);
    standIn.failNext(1, 500);
    expect(await campaignMonitor.subscriberCount(cm())).toBe(4);
  });

  it('gives up after its attempts with a retryable error naming the answer', async () => {
    standIn.failNext(5, 503);
    const error = await mailchimp.subscriberCount(mc()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ retryable: true });
    expect((error as Error).message).toMatch(
      /^The email-marketing service answered 503 .*\(reference [0-9a-f]{8}\) after 3 attempts\. Please try again later\.$/,
    );
    standIn.failNext(0, 500);
  });

  it('refuses a provider host that resolves to a private address (the SSRF guard), without retrying', async () => {
    const asked: string[] = [];
    const privateLookup: LookupFunction = (hostname, opts, callback) => {
      asked.push(hostname);
      if ((opts as { all?: boolean }).all) callback(null, [{ address: '10.0.0.7', family: 4 }]);
      else callback(null, '10.0.0.7', 4);
    };
    const provider = new MailchimpProvider({ ...options(), lookup: privateLookup });
    const error = await provider.subscriberCount(mc()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ retryable: false });
    expect((error as Error).message).toMatch(/us1\.api\.mailchimp\.com resolves to 10\.0\.0\.7/);
    expect(asked).toEqual(['us1.api.mailchimp.com']);
  });

  it('answers 429 beyond the requests one key may have open, which the adapter rides out', async () => {
    // Long enough that all twelve requests arrive while the first two are open, on a busy machine too.
    const slow = await startProvidersStandIn({ smtp: null, maxConcurrentPerKey: 2, latencyMs: 500 });
    try {
      const provider = new MailchimpProvider({
        timeoutMs: 3000,
        maxAttempts: 6,
        baseDelayMs: 20,
        baseUrl: `${slow.url}/3.0`,
      });
      const raw = await Promise.all(
        Array.from({ length: 12 }, () =>
          fetch(`${slow.url}/3.0/lists/demo-list`, {
            headers: { authorization: `Basic ${Buffer.from('x:demo-mailchimp-key-us1').toString('base64')}` },
          }).then((r) => r.status),
        ),
      );
      expect(raw.filter((s) => s === 200)).toHaveLength(2);
      expect(raw.filter((s) => s === 429)).toHaveLength(10);
      const counts = await Promise.all(Array.from({ length: 6 }, () => provider.subscriberCount(mc())));
      expect(counts).toEqual([3, 3, 3, 3, 3, 3]);
    } finally {
      await slow.close();
    }
  });
});
