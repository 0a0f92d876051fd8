// The composition root of the stock pages' tabs: each feature's tabs.ts registers its tabs into
// lib/tabs/stockPageTabs.ts once, here, so the stock pages render them without importing any feature.
// A new feature with a tab adds its line (order on the page comes from each tab's `order`).
import '@/features/stocks/tabs';
import '@/features/client-stocks/tabs';
import '@/features/market/tabs';
import '@/features/email-marketing/tabs';
import '@/features/announcements/tabs';
import '@/features/invoices/tabs';
import '@/features/reports/tabs';
import '@/features/announcement-comments/tabs';
