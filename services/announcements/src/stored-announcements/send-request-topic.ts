import { Topics } from '@irp/proto';

/**
 * The topic of an announcement's send request: a price-sensitive announcement's has its own, which the
 * sender takes in a consumer of its own (docs/adr/0018), so it never waits behind a routine send's expansion.
 */
export const sendRequestTopicOf = (announcement: { priceSensitive: boolean }) =>
  announcement.priceSensitive ? Topics.AnnouncementPrioritySendRequested : Topics.AnnouncementSendRequested;
