import { Page } from '@/components/Page';

/** Referers (spec section 2); the screen itself is built by its own issue. */
export function ReferersRoute() {
  return <Page title="Referers" />;
}
