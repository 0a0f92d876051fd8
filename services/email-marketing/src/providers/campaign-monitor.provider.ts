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

export const CAMPAIGN_MONITOR_BASE_URL = 'https://api.createsend.com/api/v3.3';

/** Campaign Monitor's errors: `{ Code, Message, ResultData }`. */
function describe(body: unknown): string | undefined {
  const e = (body ?? {}) as { Code?: number; Message?: string };
  if (e.Message) return e.Code !== undefined ? `${e.Message} (code ${e.Code})` : e.Message;
  return typeof body === 'string' && body ? body.slice(0, 300) : undefined;
}

/**
 * The parts of Campaign Monitor's replies the adapter reads (vendor-descriptions/campaign-monitor), checked
 * as they arrive: the list's statistics, the new campaign's id (a JSON string), the client's drafts and the
 * campaign's summary.
 */
const ListStats = z.object({ TotalActiveSubscribers: z.number().int().nonnegative() });
const CampaignId = z.string().min(1);
const Drafts = z.array(z.object({ CampaignID: z.string(), PreviewURL: z.string().optional() }));
const CampaignSummary = z.object({ WebVersionURL: z.string().optional() });

/** The Campaign-Monitor-type provider (API v3.3): campaigns belong to a client, made from a template. */
export class CampaignMonitorProvider implements EmailMarketingProviderAdapter {
  readonly type = 'campaign-monitor' as const;

  private readonly http: VendorHttpClient;

  constructor(private readonly options: ProviderOptions) {
    this.http = providerClient('campaign-monitor', [new URL(CAMPAIGN_MONITOR_BASE_URL).hostname], options, 5);
  }

  private call<S extends z.ZodTypeAny = z.ZodUnknown>(
    settings: EmailMarketingSettings,
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    reply?: S,
  ) {
    const base = (this.options.baseUrl ?? CAMPAIGN_MONITOR_BASE_URL).replace(/\/+$/, '');
    return callProvider(this.http, {
      method,
      url: `${base}${path}`,
      authorization: `Basic ${Buffer.from(`${settings.apiKey}:x`).toString('base64')}`,
      body,
      describe,
      reply,
    });
  }

  async subscriberCount(settings: EmailMarketingSettings): Promise<number> {
    requireSettings(settings, ['apiKey', 'listId']);
    const stats = await this.call(
      settings,
      'GET',
      `/lists/${encodeURIComponent(settings.listId)}/stats.json`,
      undefined,
      ListStats,
    );
    return stats.TotalActiveSubscribers;
  }

  private async createCampaign(settings: EmailMarketingSettings, content: CampaignContent): Promise<string> {
    requireSettings(settings, ['apiKey', 'listId', 'clientId']);
    if (!settings.templateId.trim()) throw new ProviderError('Enter the template id', null, false);
    const id = await this.call(
      settings,
      'POST',
      `/campaigns/${encodeURIComponent(settings.clientId)}/fromtemplate.json`,
      {
        Name: content.title,
        Subject: content.subject,
        FromName: settings.fromName || 'IR Portal',
        FromEmail: settings.replyTo,
        ReplyTo: settings.replyTo,
        ListIDs: [settings.listId],
        SegmentIDs: settings.savedSegmentId ? [settings.savedSegmentId] : [],
        TemplateID: settings.templateId,
        TemplateContent: {
          Singlelines: [{ Content: content.subject }],
          Multilines: [{ Content: content.html }],
        },
      },
      CampaignId,
    );
    return id;
  }

  /** The draft's preview link (before sending). */
  private async previewUrl(settings: EmailMarketingSettings, campaignId: string): Promise<string | null> {
    const drafts = await this.call(
      settings,
      'GET',
      `/clients/${encodeURIComponent(settings.clientId)}/drafts.json`,
      undefined,
      Drafts,
    );
    return drafts.find((d) => d.CampaignID === campaignId)?.PreviewURL ?? null;
  }

  async testSend(
    settings: EmailMarketingSettings,
    content: CampaignContent,
    to: string[],
  ): Promise<CampaignResult> {
    const campaignId = await this.createCampaign(settings, content);
    await this.call(settings, 'POST', `/campaigns/${encodeURIComponent(campaignId)}/sendpreview.json`, {
      PreviewRecipients: to,
      Personalize: 'fallback',
    });
    return { campaignId, previewUrl: await this.previewUrl(settings, campaignId) };
  }

  async send(settings: EmailMarketingSettings, content: CampaignContent): Promise<CampaignResult> {
    const campaignId = await this.createCampaign(settings, content);
    await this.call(settings, 'POST', `/campaigns/${encodeURIComponent(campaignId)}/send.json`, {
      ConfirmationEmail: settings.replyTo,
      SendDate: 'immediately',
    });
    const summary = await this.call(
      settings,
      'GET',
      `/campaigns/${encodeURIComponent(campaignId)}/summary.json`,
      undefined,
      CampaignSummary,
    );
    return { campaignId, previewUrl: summary.WebVersionURL ?? null };
  }
}
