import { Page } from '@/components/Page';

/** Add New Stock (spec section 2); the screen itself is built by its own issue. */
export function CreateStockRoute() {
  return <Page title="Add New Stock" />;
}
