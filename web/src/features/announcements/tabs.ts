import { StockRole } from '@irp/proto';
import { lazyTab } from '@/lib/tabs/lazyTab';
import { clientStockTabs, staffStockTabs } from '@/lib/tabs/stockPageTabs';
import { isAdmin } from '@/lib/session/roles';

// Both tabs save as they go (the form's own Save, the row menu), so the pages show no Save button on them.
staffStockTabs.register({
  key: 'announcements',
  title: 'Announcements',
  order: 40,
  allowed: ({ user }) => isAdmin(user),
  component: lazyTab(() => import('./components/AnnouncementsTab').then((m) => m.AnnouncementsTab)),
  saves: false,
});

clientStockTabs.register({
  key: 'announcements',
  title: 'Announcements',
  order: 20,
  allowed: ({ roles }) => roles.includes(StockRole.EditAnnouncements),
  component: lazyTab(() => import('./components/AnnouncementsTab').then((m) => m.ClientAnnouncementsTab)),
  saves: false,
});
