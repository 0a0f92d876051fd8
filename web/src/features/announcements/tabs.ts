import { StockRole } from '@irp/proto';
import { lazyTab } from '@/lib/tabs/lazyTab';
import { clientStockTabs, staffStockTabs } from '@/lib/tabs/stockPageTabs';
import { isAdmin } from '@/lib/session/roles';

// Announcements are added, edited and sent as they go (the form's own Save, the row menu). The staff page
// still shows its Save button here (spec section 2: on every tab but Notes and Reports), which saves the
// stock's fields as on the other tabs; the client page shows none.
staffStockTabs.register({
  key: 'announcements',
  title: 'Announcements',
  order: 40,
  allowed: ({ user }) => isAdmin(user),
  component: lazyTab(() => import('./components/AnnouncementsTab').then((m) => m.AnnouncementsTab)),
  saves: true,
});

clientStockTabs.register({
  key: 'announcements',
  title: 'Announcements',
  order: 20,
  allowed: ({ roles }) => roles.includes(StockRole.EditAnnouncements),
  component: lazyTab(() => import('./components/AnnouncementsTab').then((m) => m.ClientAnnouncementsTab)),
  saves: false,
});
