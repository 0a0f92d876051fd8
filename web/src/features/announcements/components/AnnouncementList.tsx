import { Anchor, Button, Group, Menu, Paper, Stack, Table, Text } from '@mantine/core';
import { formatDateTime, type Announcement } from '@irp/proto';
import type { CSSProperties } from 'react';
import { Link } from 'react-router-dom';
import { blockSpacer, tableSpacer, VirtualRows } from '@/components/VirtualRows';
import { useSmallScreen } from '@/lib/ui/useSmallScreen';
import {
  ALERT_LATENCY_HINT,
  commentsHref,
  documentHref,
  formatAlertLatency,
  ROW_ACTION_LABELS,
  rowActions,
  type AnnouncementPermissions,
  type RowAction,
} from '../model/announcements';
import { AnnouncementIcons } from './AnnouncementIcons';

interface AnnouncementListProps {
  /** The stock's ticker:exchange (the Comments count links to its comments screen). */
  combinedTicker: string;
  /** Newest first. */
  announcements: readonly Announcement[];
  permissions: AnnouncementPermissions;
  onAction: (action: RowAction, announcement: Announcement) => void;
}

interface RowProps {
  announcement: Announcement;
  permissions: AnnouncementPermissions;
  onAction: (action: RowAction, announcement: Announcement) => void;
}

/** A row's and a card's height before they are measured; a stock's 20 years can be thousands of rows. */
const ROW_HEIGHT = 64;
const CARD_HEIGHT = 110;
const TABLE_SPACER = tableSpacer(6);
const announcementKey = (announcement: Announcement) => announcement.sendGuid;

/** A deleted announcement stays listed, struck through (spec section 4). */
const struck = (announcement: Announcement): CSSProperties | undefined =>
  announcement.deletedOn ? { textDecoration: 'line-through' } : undefined;

function Headline({ announcement }: { announcement: Announcement }) {
  const href = documentHref(announcement);
  const style = { ...struck(announcement), overflowWrap: 'anywhere' as const };
  return href ? (
    <Anchor href={href} target="_blank" rel="noopener noreferrer" size="sm" style={style}>
      {announcement.headline}
    </Anchor>
  ) : (
    <Text span size="sm" style={style}>
      {announcement.headline}
    </Text>
  );
}

/**
 * The Comments count: a link to the announcement's comments (spec section 2) when it has any and the user
 * may read them; otherwise the number alone.
 */
function CommentsCount({
  combinedTicker,
  announcement,
  permissions,
}: {
  combinedTicker: string;
  announcement: Announcement;
  permissions: AnnouncementPermissions;
}) {
  const count = announcement.numComments;
  if (count <= 0 || !permissions.viewComments) return <>{count}</>;
  return (
    <Anchor
      component={Link}
      to={commentsHref(combinedTicker, announcement)}
      inherit
      aria-label={`${count} ${count === 1 ? 'comment' : 'comments'} on ${announcement.headline}`}
    >
      {count}
    </Anchor>
  );
}

function RowMenu({ announcement, permissions, onAction }: RowProps) {
  const actions = rowActions(announcement, permissions);
  if (actions.length === 0) return null;
  return (
    <Menu position="bottom-end" withinPortal shadow="md">
      <Menu.Target>
        <Button variant="default" size="compact-sm" aria-label={`Actions for ${announcement.headline}`}>
          Actions
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {actions.map((action) => (
          <Menu.Item
            key={action}
            color={action === 'delete' ? 'red' : undefined}
            onClick={() => onAction(action, announcement)}
          >
            {ROW_ACTION_LABELS[action]}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}

function AnnouncementTable({ combinedTicker, announcements, permissions, onAction }: AnnouncementListProps) {
  return (
    <Table.ScrollContainer minWidth={640} type="native">
      <Table striped verticalSpacing="xs" aria-label="Announcements" aria-rowcount={announcements.length + 1}>
        <Table.Thead>
          <Table.Tr aria-rowindex={1}>
            <Table.Th scope="col">Date</Table.Th>
            <Table.Th scope="col">Headline</Table.Th>
            <Table.Th scope="col">Views</Table.Th>
            <Table.Th scope="col">Comments</Table.Th>
            <Table.Th scope="col" title={ALERT_LATENCY_HINT}>
              Alert
            </Table.Th>
            <Table.Th scope="col">Actions</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody data-testid="announcement-rows">
          <VirtualRows
            rows={announcements}
            rowKey={announcementKey}
            estimateSize={ROW_HEIGHT}
            kind="row"
            spacer={TABLE_SPACER}
            renderRow={(announcement, _index, position) => (
              <Table.Tr
                {...position}
                data-testid="announcement-row"
                data-deleted={announcement.deletedOn ? 'true' : undefined}
              >
                <Table.Td style={{ whiteSpace: 'nowrap', ...struck(announcement) }}>
                  {formatDateTime(announcement.date)}
                </Table.Td>
                <Table.Td>
                  <Stack gap={4}>
                    <Headline announcement={announcement} />
                    <AnnouncementIcons announcement={announcement} />
                  </Stack>
                </Table.Td>
                <Table.Td>{announcement.hits}</Table.Td>
                <Table.Td>
                  <CommentsCount
                    combinedTicker={combinedTicker}
                    announcement={announcement}
                    permissions={permissions}
                  />
                </Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }} title={ALERT_LATENCY_HINT}>
                  {formatAlertLatency(announcement.alertLatencyMs)}
                </Table.Td>
                <Table.Td>
                  <RowMenu announcement={announcement} permissions={permissions} onAction={onAction} />
                </Table.Td>
              </Table.Tr>
            )}
          />
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** Phones: one card per announcement, the table's columns as labelled lines. */
function AnnouncementCards({ combinedTicker, announcements, permissions, onAction }: AnnouncementListProps) {
  return (
    <ul style={{ listStyle: 'none', margin: 0, padding: 0 }} aria-label="Announcements">
      <VirtualRows
        rows={announcements}
        rowKey={announcementKey}
        estimateSize={CARD_HEIGHT}
        kind="listitem"
        spacer={blockSpacer}
        renderRow={(announcement, _index, position) => (
          // The gap below each card is the item's padding, so measuring the item measures it too.
          <li {...position} style={{ paddingBottom: 'var(--mantine-spacing-xs)' }}>
            <Paper
              withBorder
              p="sm"
              radius="sm"
              data-testid="announcement-row"
              data-deleted={announcement.deletedOn ? 'true' : undefined}
            >
              <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
                <Text size="xs" c="dimmed" style={struck(announcement)}>
                  {formatDateTime(announcement.date)}
                </Text>
                <RowMenu announcement={announcement} permissions={permissions} onAction={onAction} />
              </Group>
              <Headline announcement={announcement} />
              <Group justify="space-between" mt={4} gap="xs">
                <AnnouncementIcons announcement={announcement} />
                <Text size="xs" c="dimmed">
                  Views {announcement.hits} · Comments{' '}
                  <CommentsCount
                    combinedTicker={combinedTicker}
                    announcement={announcement}
                    permissions={permissions}
                  />
                  {announcement.alertLatencyMs !== null &&
                    ` · Alert ${formatAlertLatency(announcement.alertLatencyMs)}`}
                </Text>
              </Group>
            </Paper>
          </li>
        )}
      />
    </ul>
  );
}

/** The announcements table (Date, Headline, Views, Comments, Alert, Actions), or cards on phones. */
export function AnnouncementList(props: AnnouncementListProps) {
  const small = useSmallScreen();
  if (props.announcements.length === 0) return <Text c="dimmed">No announcements yet.</Text>;
  return small ? <AnnouncementCards {...props} /> : <AnnouncementTable {...props} />;
}
