import { Alert, Center, Loader } from '@mantine/core';
import { StockRole } from '@irp/proto';
import { useEffect, useMemo, useState } from 'react';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { errorMessageOf } from '@/lib/apiError';
import { isSyncing, syncPollInterval } from '@/lib/initialPoll';
import { isAdmin } from '@/lib/session/roles';
import { selectSessionUser } from '@/lib/session/sessionSlice';
import type { ClientStockTabProps, StaffStockTabProps } from '@/lib/tabs/stockPageTabs';
import { announcementsApi, useListAnnouncementsQuery } from '../api/announcementsApi';
import { useOlderAnnouncements } from '../api/useOlderAnnouncements';
import { withOlder, type AnnouncementPermissions } from '../model/announcements';
import { AnnouncementsPanel } from './AnnouncementsPanel';

export const ANNOUNCEMENTS_UNAVAILABLE =
  'The announcements service is not available right now, so the announcements cannot be shown. Reload the page to try again shortly.';

/**
 * Staff stock page, Announcements tab (admins): the announcements the stock page composes
 * (GET /api/stock), so the tab needs no request of its own; changes refetch the stock (tag 'Stock').
 */
export function AnnouncementsTab({ stock, patchStock }: StaffStockTabProps) {
  const user = useAppSelector(selectSessionUser);
  const dispatch = useAppDispatch();
  const admin = isAdmin(user);
  const { announcements: newest, initialPoll = null, unavailable = [] } = stock;
  // The page holds the newest announcements; the older ones come page by page after it.
  const older = useOlderAnnouncements(stock.combinedTicker, newest ? stock.announcementsNext : null);
  const announcements = useMemo(
    () => newest && withOlder(newest, older.announcements),
    [newest, older.announcements],
  );

  if (!announcements) {
    return (
      <Alert color="yellow" title="Announcements unavailable" role="alert">
        {ANNOUNCEMENTS_UNAVAILABLE}
      </Alert>
    );
  }
  const permissions: AnnouncementPermissions = {
    edit: admin,
    send: admin,
    sendConfirmation: admin,
    resync: admin,
    viewComments: admin,
  };
  return (
    <AnnouncementsPanel
      stock={stock}
      announcements={announcements}
      initialPoll={initialPoll}
      syncing={isSyncing(stock.completedInitialPoll, initialPoll)}
      permissions={permissions}
      unavailable={[...unavailable, ...older.unavailable]}
      older={older}
      onResynced={(run) => {
        // Spec section 4: a resync sets completedInitialPoll back to false locally; the page then
        // follows the run by fetching the stock while it reports progress.
        if (patchStock) patchStock({ completedInitialPoll: false, initialPoll: run });
        else dispatch(announcementsApi.util.invalidateTags(['Stock']));
      }}
    />
  );
}

/**
 * Client stock page, Announcements tab (EditAnnouncements on the stock): the same list and form through
 * GET /api/Announcement/list; Send Email only with SendMailchimp on the stock; no confirmation email or
 * resync (admin only).
 */
export function ClientAnnouncementsTab({ stock }: ClientStockTabProps) {
  const [pollingInterval, setPollingInterval] = useState(0);
  const { data, error, isLoading } = useListAnnouncementsQuery(stock.combinedTicker, { pollingInterval });
  const older = useOlderAnnouncements(stock.combinedTicker, data?.next);
  const newest = data?.announcements;
  const announcements = useMemo(
    () => newest && withOlder(newest, older.announcements),
    [newest, older.announcements],
  );
  const initialPoll = data?.initialPoll ?? null;
  // The list's run is the announcements service's own, newer than the stock's completedInitialPoll.
  const syncing = isSyncing(stock.completedInitialPoll, initialPoll);
  const interval = syncPollInterval(stock.completedInitialPoll, initialPoll);

  useEffect(() => {
    setPollingInterval(interval);
  }, [interval]);

  if (isLoading) {
    return (
      <Center py="xl">
        <Loader aria-label="Loading announcements" />
      </Center>
    );
  }
  if (!data) {
    return (
      <Alert color="red" role="alert" title="Unable to load the announcements">
        {errorMessageOf(error)}
      </Alert>
    );
  }
  const permissions: AnnouncementPermissions = {
    edit: stock.roles.includes(StockRole.EditAnnouncements),
    send: stock.roles.includes(StockRole.SendMailchimp),
    sendConfirmation: false,
    resync: false,
    viewComments: stock.roles.includes(StockRole.ReplyToComment),
  };
  return (
    <AnnouncementsPanel
      stock={stock}
      announcements={announcements ?? data.announcements}
      initialPoll={initialPoll}
      syncing={syncing}
      permissions={permissions}
      unavailable={[...data.unavailable, ...older.unavailable]}
      older={older}
    />
  );
}
