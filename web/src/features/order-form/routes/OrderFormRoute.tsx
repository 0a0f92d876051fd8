import { useParams } from 'react-router-dom';
import { Page } from '@/components/Page';
import { OrderForm } from '../components/OrderForm';

/** /new-order/{id?} (spec section 2, public): the order form of option group {id} (none: the default group). */
export function OrderFormRoute() {
  const { id } = useParams();
  return (
    <Page title="Order Form">
      <OrderForm groupId={id} />
    </Page>
  );
}
