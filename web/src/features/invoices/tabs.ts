import { GlobalRole } from '@irp/proto';
import { lazyTab } from '@/lib/tabs/lazyTab';
import { staffStockTabs } from '@/lib/tabs/stockPageTabs';
import { hasRole, isAdmin } from '@/lib/session/roles';

staffStockTabs.register({
  key: 'invoices',
  title: 'Invoices',
  order: 50,
  // Spec section 6: InvoiceTotal "sees ... the Invoices tab", and Admin "implies all" ("Admins see all"):
  // the invoicing routes' own rule (proto/src/invoicing/routes.ts), so a staff user without Admin reaches it.
  allowed: ({ user }) => isAdmin(user) || hasRole(user, GlobalRole.InvoiceTotal),
  component: lazyTab(() => import('./components/InvoicesTab').then((m) => m.InvoicesTab)),
  saves: true,
});
