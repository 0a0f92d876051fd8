import { StockRole } from '@irp/proto';
import { lazyTab } from '@/lib/tabs/lazyTab';
import { clientStockTabs } from '@/lib/tabs/stockPageTabs';

clientStockTabs.register({
  key: 'comments',
  title: 'Comments',
  order: 40,
  allowed: ({ roles }) => roles.includes(StockRole.ReplyToComment),
  component: lazyTab(() => import('./components/ClientCommentsTab').then((m) => m.ClientCommentsTab)),
  // Spec section 2: Comments has no save.
  saves: false,
});
