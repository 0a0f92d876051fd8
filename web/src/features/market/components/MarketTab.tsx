import { TabPlaceholder } from '@/components/TabPlaceholder';

/** Staff stock page, Market tab (spec section 2); its screen arrives with the market data feature. */
export function MarketTab() {
  return <TabPlaceholder title="Market" text="The Market tab arrives with its feature." />;
}
