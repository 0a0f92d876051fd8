import { Page } from '@/components/Page';

/** Users (spec section 2); the screen itself is built by its own issue. */
export function UsersRoute() {
  return <Page title="Users" />;
}
