import { Page } from '@/components/Page';

/** Staff Dashboard (spec section 2); the screen itself is built by its own issue. */
export function StaffDashboardRoute() {
  return <Page title="Staff Dashboard" />;
}
