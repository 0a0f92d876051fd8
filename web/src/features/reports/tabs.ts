import { GlobalRole } from '@irp/proto';
import { lazyTab } from '@/lib/tabs/lazyTab';
import { staffStockTabs } from '@/lib/tabs/stockPageTabs';
import { hasRole, isAdmin } from '@/lib/session/roles';

staffStockTabs.register({
  key: 'reports',
  title: 'Reports',
  order: 70,
  // Report-runners see only this tab (spec section 2).
  allowed: ({ user }) => isAdmin(user) || hasRole(user, GlobalRole.RunReports),
  component: lazyTab(() => import('./components/ReportsTab').then((m) => m.ReportsTab)),
  // Generate saves as it goes.
  saves: false,
});
