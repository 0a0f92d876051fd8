import { GlobalRole } from '@irp/proto';
import { lazyTab } from '@/lib/tabs/lazyTab';
import { staffStockTabs } from '@/lib/tabs/stockPageTabs';
import { hasRole, isAdmin } from '@/lib/session/roles';

staffStockTabs.register({
  key: 'invoices',
  title: 'Invoices',
  order: 50,
  // Spec section 6: InvoiceTotal holders see the Invoices tab; the stock page is for admins.
  allowed: ({ user }) => isAdmin(user) && hasRole(user, GlobalRole.InvoiceTotal),
  component: lazyTab(() => import('./components/InvoicesTab').then((m) => m.InvoicesTab)),
  saves: true,
});
