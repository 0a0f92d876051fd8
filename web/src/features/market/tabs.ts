import { lazyTab } from '@/lib/tabs/lazyTab';
import { staffStockTabs } from '@/lib/tabs/stockPageTabs';
import { isAdmin } from '@/lib/session/roles';

staffStockTabs.register({
  key: 'market',
  title: 'Market',
  order: 20,
  allowed: ({ user }) => isAdmin(user),
  component: lazyTab(() => import('./components/MarketTab').then((m) => m.MarketTab)),
  saves: true,
});
