import { Page } from '@/components/Page';

/** Accounting Integration (spec section 2); the screen itself is built by its own issue. */
export function AccountingRoute() {
  return <Page title="Accounting Integration" />;
}
