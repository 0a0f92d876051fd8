import { Page } from '@/components/Page';
import { ServiceOrderList } from '../components/ServiceOrderList';

/** /orders (spec section 2, Service Orders): the staff list of orders from the public form. */
export function ServiceOrdersRoute() {
  return (
    <Page title="Service Orders">
      <ServiceOrderList />
    </Page>
  );
}
