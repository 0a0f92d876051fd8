import { TabPlaceholder } from '@/components/TabPlaceholder';

/** Staff stock page, Reports tab (spec section 2); its screen arrives with the reports feature. */
export function ReportsTab() {
  return <TabPlaceholder title="Reports" text="The Reports tab arrives with its feature." />;
}
