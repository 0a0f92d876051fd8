import { Page } from '@/components/Page';

/** System Settings (spec section 2); the screen itself is built by its own issue. */
export function SystemSettingsRoute() {
  return <Page title="System Settings" />;
}
