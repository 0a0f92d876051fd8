import type { EmailMarketingSettings } from '@irp/proto';
import type { VendorHttpClient } from '@irp/platform';
import { z } from 'zod';
import { callProvider, providerClient } from './provider-http';
import {
  CampaignContent,
  CampaignResult,
  EmailMarketingProviderAdapter,
  ProviderError,
  ProviderOptions,
  requireSettings,
} from './provider';

/** `https://{dc}.api.mailchimp.com/3.0`: the data centre is the API key's suffix after the last '-'. */
export function mailchimpBaseUrl(apiKey: string): string {
  const dc = apiKey.includes('-') ? apiKey.slice(apiKey.lastIndexOf('-') + 1) : '';
  if (!/^[a-z]+\d+$/i.test(dc))
    throw new ProviderError('The email-marketing API key has no data centre suffix (like -us1)', null, false);
  return `https://${dc}.api.mailchimp.com/3.0`;
}

/** Mailchimp's errors are problem+json: `{ type, title, status, detail, instance }`. */
function describe(body: unknown): string | undefined {
  const p = (body ?? {}) as { title?: string; detail?: string };
  if (p.title || p.detail) return [p.title, p.detail].filter(Boolean).join(': ');
  return typeof body === 'string' && body ? body.slice(0, 300) : undefined;
}

const idOrString = (v: string) => (/^\d+$/.test(v) ? Number(v) : v);

/**
 * The parts of Mailchimp's published replies (vendor-descriptions/mailchimp) the adapter reads, checked as
 * they arrive: `GET /lists/{list_id}` (Subscriber List) and `POST /campaigns` (Campaign).
 */
const SubscriberList = z.object({ stats: z.object({ member_count: z.number().int().nonnegative() }) });
const Campaign = z.object({
  id: z.string().min(1),
  archive_url: z.string().optional(),
  long_archive_url: z.string().optional(),
});

/** The Mailchimp-type provider (Marketing API v3). */
export class MailchimpProvider implements EmailMarketingProviderAdapter {
  readonly type = 'mailchimp' as const;

  private readonly http: VendorHttpClient;

  constructor(private readonly options: ProviderOptions) {
    this.http = providerClient('mailchimp', ['*.api.mailchimp.com'], options, 10);
  }

  private call<S extends z.ZodTypeAny = z.ZodUnknown>(
    settings: EmailMarketingSettings,
    method: 'GET' | 'POST' | 'PUT',
    path: string,
    body?: unknown,
    reply?: S,
  ) {
    const base = (this.options.baseUrl ?? mailchimpBaseUrl(settings.apiKey)).replace(/\/+$/, '');
    return callProvider(this.http, {
      method,
      url: `${base}${path}`,
      authorization: `Basic ${Buffer.from(`irportal:${settings.apiKey}`).toString('base64')}`,
      body,
      describe,
      reply,
    });
  }

  async subscriberCount(settings: EmailMarketingSettings): Promise<number> {
    requireSettings(settings, ['apiKey', 'listId']);
    const list = await this.call(
      settings,
      'GET',
      `/lists/${encodeURIComponent(settings.listId)}?fields=id,stats.member_count`,
      undefined,
      SubscriberList,
    );
    return list.stats.member_count;
  }

  private async createCampaign(settings: EmailMarketingSettings, content: CampaignContent) {
    requireSettings(settings, ['apiKey', 'listId']);
    const campaign = await this.call(
      settings,
      'POST',
      '/campaigns',
      {
        type: 'regular',
        recipients: {
          list_id: settings.listId,
          ...(settings.savedSegmentId
            ? { segment_opts: { saved_segment_id: idOrString(settings.savedSegmentId) } }
            : {}),
        },
        settings: {
          subject_line: content.subject.slice(0, 150),
          title: content.title,
          from_name: settings.fromName || 'IR Portal',
          reply_to: settings.replyTo,
          ...(settings.templateId ? { template_id: idOrString(settings.templateId) } : {}),
        },
      },
      Campaign,
    );
    await this.call(
      settings,
      'PUT',
      `/campaigns/${encodeURIComponent(campaign.id)}/content`,
      settings.templateId
        ? { template: { id: idOrString(settings.templateId), sections: { body: content.html } } }
        : { html: content.html, plain_text: content.text },
    );
    return { campaignId: campaign.id, previewUrl: campaign.long_archive_url ?? campaign.archive_url ?? null };
  }

  async testSend(
    settings: EmailMarketingSettings,
    content: CampaignContent,
    to: string[],
  ): Promise<CampaignResult> {
    const campaign = await this.createCampaign(settings, content);
    await this.call(settings, 'POST', `/campaigns/${encodeURIComponent(campaign.campaignId)}/actions/test`, {
      test_emails: to,
      send_type: 'html',
    });
    return campaign;
  }

  async send(settings: EmailMarketingSettings, content: CampaignContent): Promise<CampaignResult> {
    const campaign = await this.createCampaign(settings, content);
    await this.call(settings, 'POST', `/campaigns/${encodeURIComponent(campaign.campaignId)}/actions/send`);
    return campaign;
  }
}
