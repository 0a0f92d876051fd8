import { Alert, Button, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { AnnouncementMessages, displayTicker, type Announcement, type InitialPollProgress } from '@irp/proto';
import { useEffect, useMemo, useState } from 'react';
import { SAVED_TEXT_MS } from '@/components/save/SaveFlow';
import { errorMessageOf } from '@/lib/apiError';
import { useGlobalSpinner } from '@/lib/ui/useGlobalSpinner';
import {
  useDeleteAnnouncementMutation,
  useResyncAnnouncementsMutation,
  useSendAnnouncementMutation,
  useSendConfirmationEmailMutation,
} from '../api/announcementsApi';
import type { OlderAnnouncements } from '../api/useOlderAnnouncements';
import {
  sortNewestFirst,
  wasSent,
  type AnnouncementPermissions,
  type RowAction,
} from '../model/announcements';
import { AnnouncementFormModal } from './AnnouncementForm';
import { AnnouncementList } from './AnnouncementList';
import { SyncProgress } from './SyncProgress';

/** The stock the tab is about, in the fields both stock pages' stocks have. */
export interface AnnouncementsStock {
  ticker: string;
  exchange: string;
  combinedTicker: string;
}

interface AnnouncementsPanelProps {
  stock: AnnouncementsStock;
  announcements: readonly Announcement[];
  initialPoll: InitialPollProgress | null;
  /** The initial poll is incomplete: adding (and resync) is hidden, its progress shows instead. */
  syncing: boolean;
  permissions: AnnouncementPermissions;
  /**
   * The services that did not answer for this list (the gateway's `unavailable`): 'email-marketing' means who
   * was mailed is unknown, so the sent icons may be missing.
   */
  unavailable?: readonly string[];
  /** The older pages' loading (useOlderAnnouncements): shown below the list while they come. */
  older?: Pick<OlderAnnouncements, 'loading' | 'error'>;
  /** A resync started: the page shows 'Sync in Progress' from this run. */
  onResynced?: (initialPoll: InitialPollProgress) => void;
}

/** Shown when the email-marketing service, which owns who was mailed (ADR 0013), did not answer. */
export const SENT_STATE_UNAVAILABLE =
  'Who was mailed each announcement cannot be shown right now (the email-marketing service did not answer), so announcements already sent may show as not sent. Reload the page to try again shortly.';

/** Below the list while its older pages load (a stock's 20 years come a page at a time). */
export const olderLoadingText = (shown: number) =>
  `Loading older announcements… ${shown.toLocaleString('en-AU')} shown so far`;
export const OLDER_FAILED_TITLE = 'Older announcements could not be loaded';

/** The confirmations of spec section 5 (delete, send confirmation email, manual send, resync). */
export const confirmTexts = {
  delete: (headline: string) => `Delete the announcement '${headline}'?`,
  send: (headline: string) => `Send the announcement '${headline}' to subscribers now?`,
  sendConfirmation: (headline: string) =>
    `Send the confirmation email for '${headline}' to the stock's confirmation emails?`,
  resync: (ticker: string) =>
    `Resync the announcements of ${ticker}? They are read again from the poll start year, and Sync in Progress shows until that completes.`,
};

interface Failure {
  title: string;
  message: string;
}

/**
 * The Announcements tab of both stock pages (spec section 2): Add Announcement and Resync (or the sync's
 * progress while the initial poll is incomplete), the list newest first with its row menu, the Add/Edit
 * form, and the confirmations and results of each action ('Sent!'; failures in a modal).
 */
export function AnnouncementsPanel({
  stock,
  announcements,
  initialPoll,
  syncing,
  permissions,
  unavailable = [],
  older,
  onResynced,
}: AnnouncementsPanelProps) {
  const sorted = useMemo(() => sortNewestFirst(announcements), [announcements]);
  const [editing, setEditing] = useState<{ announcement: Announcement | null } | null>(null);
  const [notice, setNotice] = useState<{ text: string; at: number } | null>(null);
  const [failure, setFailure] = useState<Failure | null>(null);
  const withSpinner = useGlobalSpinner();
  const [deleteAnnouncement] = useDeleteAnnouncementMutation();
  const [sendAnnouncement] = useSendAnnouncementMutation();
  const [sendConfirmationEmail] = useSendConfirmationEmailMutation();
  const [resync, { isLoading: resyncing }] = useResyncAnnouncementsMutation();
  const { combinedTicker } = stock;

  // 'Sent!' lasts as long as the Save button's 'Saved!' (spec section 9: 3 seconds).
  useEffect(() => {
    if (!notice) return undefined;
    const timer = setTimeout(() => setNotice(null), SAVED_TEXT_MS);
    return () => clearTimeout(timer);
  }, [notice]);

  async function run(title: string, work: () => Promise<unknown>, failureText = (m: string) => m) {
    try {
      await withSpinner(work);
      return true;
    } catch (error) {
      setFailure({ title, message: failureText(errorMessageOf(error)) });
      return false;
    }
  }

  async function send(announcement: Announcement) {
    if (!window.confirm(confirmTexts.send(announcement.headline))) return;
    // A second confirmation for a resend, which then goes with the override flag (spec section 4).
    const override = wasSent(announcement);
    if (override && !window.confirm(AnnouncementMessages.alreadySent)) return;
    const sent = await run('Send failed', () =>
      sendAnnouncement({ combinedTicker, announcement, override }).unwrap(),
    );
    if (sent) setNotice({ text: AnnouncementMessages.sent, at: Date.now() });
  }

  async function sendConfirmation(announcement: Announcement) {
    if (!window.confirm(confirmTexts.sendConfirmation(announcement.headline))) return;
    const sent = await run('Send failed', () =>
      sendConfirmationEmail({ combinedTicker, announcement }).unwrap(),
    );
    if (sent) setNotice({ text: AnnouncementMessages.sent, at: Date.now() });
  }

  async function remove(announcement: Announcement) {
    if (!window.confirm(confirmTexts.delete(announcement.headline))) return;
    await run(
      'Delete failed',
      () => deleteAnnouncement({ combinedTicker, announcement }).unwrap(),
      AnnouncementMessages.deleteFailed,
    );
  }

  async function startResync() {
    if (!window.confirm(confirmTexts.resync(displayTicker(stock.ticker, stock.exchange)))) return;
    try {
      const result = await resync(combinedTicker).unwrap();
      onResynced?.(result.initialPoll);
    } catch (error) {
      setFailure({ title: 'Resync failed', message: errorMessageOf(error) });
    }
  }

  function onAction(action: RowAction, announcement: Announcement) {
    if (action === 'edit') setEditing({ announcement });
    else if (action === 'send') void send(announcement);
    else if (action === 'sendConfirmation') void sendConfirmation(announcement);
    else void remove(announcement);
  }

  // A failed run leaves the initial poll incomplete: say so, and let an admin start it again.
  const failedRun = initialPoll?.status === 'failed' ? initialPoll : null;
  const showAdd = permissions.edit && !syncing;
  const showResync = permissions.resync && (!syncing || failedRun !== null);

  return (
    <Stack gap="md" data-testid="announcements-tab">
      {unavailable.includes('email-marketing') && (
        <Alert color="yellow" title="Sent state unavailable" role="status">
          {SENT_STATE_UNAVAILABLE}
        </Alert>
      )}
      {syncing && !failedRun && <SyncProgress initialPoll={initialPoll} />}
      {failedRun && (
        <Alert color="red" title="The last sync failed">
          {failedRun.error ?? 'The announcement source could not be read.'}
        </Alert>
      )}
      {(showAdd || showResync) && (
        <Group gap="sm" wrap="wrap">
          {showAdd && <Button onClick={() => setEditing({ announcement: null })}>Add Announcement</Button>}
          {showResync && (
            <Button variant="default" onClick={() => void startResync()} loading={resyncing}>
              Resync
            </Button>
          )}
        </Group>
      )}
      {notice && (
        <Alert key={notice.at} color="green" variant="light" role="status" py="xs">
          {notice.text}
        </Alert>
      )}

      <AnnouncementList
        combinedTicker={combinedTicker}
        announcements={sorted}
        permissions={permissions}
        onAction={onAction}
      />
      {older?.loading && (
        <Group gap="xs" role="status">
          <Loader size="xs" aria-hidden />
          <Text size="sm" c="dimmed">
            {olderLoadingText(sorted.length)}
          </Text>
        </Group>
      )}
      {older?.error && (
        <Alert color="red" title={OLDER_FAILED_TITLE} role="alert">
          {older.error}
        </Alert>
      )}

      <AnnouncementFormModal
        editing={editing}
        combinedTicker={combinedTicker}
        exchange={stock.exchange}
        onDone={() => setEditing(null)}
      />
      <Modal opened={failure !== null} onClose={() => setFailure(null)} title={failure?.title} centered>
        <Stack gap="md">
          <Text role="alert" style={{ overflowWrap: 'anywhere' }}>
            {failure?.message}
          </Text>
          <Button onClick={() => setFailure(null)} w="fit-content">
            OK
          </Button>
        </Stack>
      </Modal>
    </Stack>
  );
}
