import { TabPlaceholder } from '@/components/TabPlaceholder';

/** Client stock page, Comments tab (ReplyToComment); its screen arrives with the comments issue. */
export function ClientCommentsTab() {
  return <TabPlaceholder text="Comments arrive with the comments feature." />;
}
