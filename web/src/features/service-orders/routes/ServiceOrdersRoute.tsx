import { Page } from '@/components/Page';

/** Service Orders (spec section 2); the screen itself is built by its own issue. */
export function ServiceOrdersRoute() {
  return <Page title="Service Orders" />;
}
