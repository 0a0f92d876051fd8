import type { ClientStockTabProps } from '@/lib/tabs/stockPageTabs';
import { AnnouncementComments } from './AnnouncementComments';

/** Client stock page, Comments tab (ReplyToComment on the stock): the stock's comment groups; no save. */
export function ClientCommentsTab({ stock }: ClientStockTabProps) {
  return <AnnouncementComments combinedTicker={stock.combinedTicker} />;
}
