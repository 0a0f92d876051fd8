import { TabPlaceholder } from '@/components/TabPlaceholder';

/** Staff stock page, Invoices tab (spec section 2); its screen arrives with the invoicing feature. */
export function InvoicesTab() {
  return <TabPlaceholder title="Invoices" text="The Invoices tab arrives with its feature." />;
}
