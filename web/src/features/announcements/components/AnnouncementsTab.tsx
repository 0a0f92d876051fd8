import { TabPlaceholder } from '@/components/TabPlaceholder';

/** Staff stock page, Announcements tab (spec section 2); its screen arrives with the announcements issue. */
export function AnnouncementsTab() {
  return <TabPlaceholder title="Announcements" text="The Announcements tab arrives with its feature." />;
}

/** Client stock page, Announcements tab (EditAnnouncements); arrives with the announcements issue. */
export function ClientAnnouncementsTab() {
  return <TabPlaceholder text="Announcements arrive with the announcements feature." />;
}
