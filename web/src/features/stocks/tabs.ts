import { lazyTab } from '@/lib/tabs/lazyTab';
import { staffStockTabs } from '@/lib/tabs/stockPageTabs';
import { isAdmin } from '@/lib/session/roles';

/** The Config tab; /create shows it alone, around a new stock. */
export const StockConfigTab = lazyTab(() =>
  import('./components/StockConfigTab').then((m) => m.StockConfigTab),
);

// The stock page's own tabs; the others come from their features' tabs.ts (see web/README.md).
staffStockTabs.register(
  {
    key: 'config',
    title: 'Config',
    order: 10,
    allowed: ({ user }) => isAdmin(user),
    component: StockConfigTab,
    saves: true,
  },
  {
    key: 'notes',
    title: 'Notes',
    order: 60,
    allowed: ({ user }) => isAdmin(user),
    component: lazyTab(() => import('./components/StockNotesTab').then((m) => m.StockNotesPanel)),
    // Add Note saves as it goes.
    saves: false,
  },
);
