import { Divider } from '@mantine/core';
import { Page } from '@/components/Page';
import { OptionGroupsSection } from '../components/OptionGroupsSection';
import { ServiceOrderList } from '../components/ServiceOrderList';

/**
 * /orders (spec section 2, Service Orders): the staff list of orders from the public form, then the option
 * groups the form offers.
 */
export function ServiceOrdersRoute() {
  return (
    <Page title="Service Orders">
      <ServiceOrderList />
      <Divider my="sm" />
      <OptionGroupsSection />
    </Page>
  );
}
