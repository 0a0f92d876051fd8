import { StockRole } from '@irp/proto';
import { lazyTab } from '@/lib/tabs/lazyTab';
import { clientStockTabs } from '@/lib/tabs/stockPageTabs';

// The client stock page's own tab; the others come from their features' tabs.ts (see web/README.md).
clientStockTabs.register({
  key: 'config',
  title: 'Config',
  order: 10,
  allowed: ({ roles }) => roles.includes(StockRole.ViewConfig),
  component: lazyTab(() => import('./components/ConfigTab').then((m) => m.ClientConfigTab)),
  saves: true,
});
