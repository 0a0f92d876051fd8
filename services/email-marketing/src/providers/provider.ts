import type { LookupFunction } from 'node:net';
import type { EmailMarketingProvider, EmailMarketingSettings } from '@irp/proto';

/** A campaign's content: the provider's template wraps `html` (its body section) and adds its own footer. */
export interface CampaignContent {
  subject: string;
  /** The campaign's name in the provider's account. */
  title: string;
  html: string;
  text: string;
}

export interface CampaignResult {
  campaignId: string;
  /** Where a person previews (before sending) or reads (after) the campaign; null when the provider gives none. */
  previewUrl: string | null;
}

/** One email-marketing provider's HTTP API (vendor-apis.md), behind one interface. */
export interface EmailMarketingProviderAdapter {
  readonly type: EmailMarketingProvider;
  /** The list's (active) subscriber count. */
  subscriberCount(settings: EmailMarketingSettings): Promise<number>;
  /** A campaign from the template (and saved segment) with the content, test-sent to `to`. */
  testSend(settings: EmailMarketingSettings, content: CampaignContent, to: string[]): Promise<CampaignResult>;
  /** A campaign from the template (and saved segment) with the content, sent to the list. */
  send(settings: EmailMarketingSettings, content: CampaignContent): Promise<CampaignResult>;
}

/**
 * A provider call that failed, with the provider's own words. `retryable`: the provider was busy or down
 * (429, 5xx, no answer) and still was after the retries; otherwise it refused the request (bad key, unknown
 * list, a missing setting) and asking again would not help.
 */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

export interface ProviderOptions {
  /** The API's base URL (a stand-in, or a region); else the vendor's own. */
  baseUrl?: string;
  timeoutMs: number;
  /** Attempts of one call when the provider is busy or down (429, 5xx, no answer). */
  maxAttempts?: number;
  /** First backoff delay; doubled each attempt, or the provider's Retry-After when it says. */
  baseDelayMs?: number;
  /** Calls open at once to the provider (default: Mailchimp 10, Campaign Monitor 5) and per minute. */
  maxConcurrent?: number;
  perMinute?: number;
  /** DNS lookup (tests). */
  lookup?: LookupFunction;
}

/** The settings a provider cannot do without, checked before any call. */
export function requireSettings(
  settings: EmailMarketingSettings,
  fields: Array<keyof EmailMarketingSettings>,
): void {
  const names: Partial<Record<keyof EmailMarketingSettings, string>> = {
    apiKey: 'the email-marketing API key',
    listId: 'the list id',
    clientId: 'the client id',
  };
  const missing = fields.filter((f) => !String(settings[f] ?? '').trim());
  if (missing.length)
    throw new ProviderError(`Enter ${missing.map((f) => names[f] ?? f).join(' and ')}`, null, false);
}
