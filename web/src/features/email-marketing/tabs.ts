import { StockRole } from '@irp/proto';
import { lazyTab } from '@/lib/tabs/lazyTab';
import { clientStockTabs, staffStockTabs } from '@/lib/tabs/stockPageTabs';
import { isAdmin } from '@/lib/session/roles';

staffStockTabs.register({
  key: 'email-marketing',
  title: 'Email marketing',
  order: 30,
  allowed: ({ user }) => isAdmin(user),
  component: lazyTab(() => import('./components/EmailMarketingTab').then((m) => m.EmailMarketingTab)),
  saves: true,
});

clientStockTabs.register({
  key: 'email-marketing',
  title: 'Email marketing',
  order: 30,
  allowed: ({ roles }) => roles.includes(StockRole.EditMailchimp),
  component: lazyTab(() => import('./components/EmailMarketingTab').then((m) => m.ClientEmailMarketingTab)),
  saves: true,
  // The email-marketing service's name, as older links write it.
  aliases: ['mailchimp'],
});
