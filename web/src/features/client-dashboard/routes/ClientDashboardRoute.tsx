import { Page } from '@/components/Page';

/** Client Dashboard (spec section 2); the screen itself is built by its own issue. */
export function ClientDashboardRoute() {
  return <Page title="Client Dashboard" />;
}
