/**
 * The auto-send filter's hint on both Config tabs (staff and client): the filter keeps headlines OUT of
 * automatic sending, which its name alone does not say.
 */
export const AUTO_SEND_FILTER_HINT =
  "Headlines matching this filter are NOT sent automatically (the standard filter keeps routine Appendix 3B/3Y forms out of subscribers' inboxes); they can still be sent by hand from the Announcements tab.";
