import { TabPlaceholder } from '@/components/TabPlaceholder';

/** Staff stock page, Email marketing tab (spec section 2); its screen arrives with the email issue. */
export function EmailMarketingTab() {
  return <TabPlaceholder title="Email marketing" text="The Email marketing tab arrives with its feature." />;
}

/** Client stock page, email-marketing tab (EditMailchimp); its screen arrives with the email issue. */
export function ClientEmailMarketingTab() {
  return <TabPlaceholder text="Email marketing settings arrive with the email-marketing feature." />;
}
