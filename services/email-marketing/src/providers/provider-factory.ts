import type { EmailMarketingProvider } from '@irp/proto';
import { CampaignMonitorProvider } from './campaign-monitor.provider';
import { MailchimpProvider } from './mailchimp.provider';
import type { EmailMarketingProviderAdapter, ProviderOptions } from './provider';

/** The adapter of a provider type. */
export function providerFor(
  type: EmailMarketingProvider,
  options: ProviderOptions,
): EmailMarketingProviderAdapter {
  return type === 'campaign-monitor' ? new CampaignMonitorProvider(options) : new MailchimpProvider(options);
}
