import {
  Alert,
  Badge,
  Center,
  Group,
  Loader,
  Paper,
  Progress,
  Select,
  Stack,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import {
  formatDate,
  formatDateTime,
  SUPPRESSION_REASON_LABELS,
  type Subscriber,
  type SubscriberChoices,
  type SubscriberCounts,
  type SubscriberStatus,
} from '@irp/proto';
import { useId, useMemo, useState } from 'react';
import { DataTable, type DataColumn } from '@/components/DataTable';
import { errorMessageOf } from '@/lib/apiError';
import { useFollowingPages } from '@/api/useFollowingPages';
import { emailMarketingApi, useSubscribersQuery } from '../api/emailMarketingApi';
import {
  bySubscribedNewestFirst,
  SUBSCRIBER_FILTER_LABELS,
  SUBSCRIBER_STATUS_LABELS,
  SUBSCRIBER_STATUSES,
  subscriberMatches,
  type SubscriberFilter,
} from '../model/emailMarketingForm';

const STATUS_COLORS: Record<SubscriberStatus, string> = {
  confirmed: 'green',
  pending: 'yellow',
  unsubscribed: 'gray',
};

const COLUMNS: readonly DataColumn<Subscriber>[] = [
  { label: 'Email', render: (s) => s.email },
  {
    label: 'Status',
    render: (s) => (
      <Group gap={6} wrap="wrap">
        <Badge color={STATUS_COLORS[s.status]} variant="light" tt="none">
          {SUBSCRIBER_STATUS_LABELS[s.status]}
        </Badge>
        {s.suppressed && <SuppressedBadge suppressed={s.suppressed} />}
      </Group>
    ),
  },
  {
    label: 'Receives',
    render: (s) =>
      `${s.preference === 'price-sensitive' ? 'Price-sensitive only' : 'Every announcement'}${
        s.pausedUntil && Date.parse(s.pausedUntil) > Date.now()
          ? `, paused until ${formatDate(s.pausedUntil)}`
          : ''
      }`,
  },
  { label: 'Subscribed', render: (s) => formatDateTime(s.subscribedAt), nowrap: true },
  { label: 'Confirmed', render: (s) => formatDateTime(s.confirmedAt), nowrap: true },
  { label: 'Unsubscribed', render: (s) => formatDateTime(s.unsubscribedAt), nowrap: true },
];

/**
 * An address mailed no more (for every stock): why, with what the receiving side said and since when on hover
 * or focus, and in the badge's accessible description.
 */
function SuppressedBadge({ suppressed }: { suppressed: NonNullable<Subscriber['suppressed']> }) {
  const why = `Not mailed since ${formatDateTime(suppressed.since)}${suppressed.detail ? `: ${suppressed.detail}` : ''}`;
  return (
    <Tooltip label={why} multiline maw={320} withArrow events={{ hover: true, focus: true, touch: true }}>
      <Badge
        color="red"
        variant="light"
        tt="none"
        tabIndex={0}
        title={why}
        data-testid="subscriber-suppressed"
      >
        Suppressed: {SUPPRESSION_REASON_LABELS[suppressed.reason]}
      </Badge>
    </Tooltip>
  );
}

/** The counts per status as a labelled row, and as one stacked bar of their shares. */
function SubscriberCountsView({ counts }: { counts: SubscriberCounts }) {
  const total = SUBSCRIBER_STATUSES.reduce((sum, status) => sum + counts[status], 0);
  return (
    <Stack gap="xs">
      <Group component="dl" gap="lg" m={0} wrap="wrap" aria-label="Subscriber counts">
        {SUBSCRIBER_STATUSES.map((status) => (
          <Group key={status} gap={6} wrap="nowrap" data-testid={`subscriber-count-${status}`}>
            <Text component="dt" size="sm" c="dimmed">
              {SUBSCRIBER_STATUS_LABELS[status]}
            </Text>
            <Text component="dd" size="sm" fw={600} m={0}>
              {counts[status]}
            </Text>
          </Group>
        ))}
      </Group>
      {total > 0 && (
        <Progress.Root size="lg" aria-hidden>
          {SUBSCRIBER_STATUSES.filter((status) => counts[status] > 0).map((status) => (
            <Tooltip key={status} label={`${SUBSCRIBER_STATUS_LABELS[status]}: ${counts[status]}`} withArrow>
              <Progress.Section value={(counts[status] / total) * 100} color={STATUS_COLORS[status]} />
            </Tooltip>
          ))}
        </Progress.Root>
      )}
    </Stack>
  );
}

/** Of the confirmed subscribers: how many chose each preference, are paused, are suppressed. */
function SubscriberChoicesView({ choices }: { choices: SubscriberChoices }) {
  const shown: Array<[keyof SubscriberChoices, string]> = [
    ['all', 'Every announcement'],
    ['price-sensitive', 'Price-sensitive only'],
    ['paused', 'Paused'],
    ['suppressed', 'Suppressed'],
  ];
  return (
    <Group component="dl" gap="lg" m={0} wrap="wrap" aria-label="Confirmed subscribers' choices">
      {shown.map(([key, label]) => (
        <Group key={key} gap={6} wrap="nowrap" data-testid={`subscriber-choice-${key}`}>
          <Text component="dt" size="sm" c="dimmed">
            {label}
          </Text>
          <Text component="dd" size="sm" fw={600} m={0}>
            {choices[key]}
          </Text>
        </Group>
      ))}
    </Group>
  );
}

const FILTERS = Object.entries(SUBSCRIBER_FILTER_LABELS).map(([value, label]) => ({ value, label }));

const subscriberKey = (subscriber: Subscriber) => subscriber.id;

/**
 * The subscribers: a table, or on phones one card per subscriber with the columns as labelled lines. All of
 * them in one list (spec section 9: no page sizes); a stock's 50,000 render only those near the screen.
 */
function SubscriberList({
  subscribers,
  empty = 'No subscribers yet',
}: {
  subscribers: readonly Subscriber[];
  empty?: string;
}) {
  return (
    <DataTable
      label="Subscribers"
      columns={COLUMNS}
      rows={subscribers}
      rowKey={subscriberKey}
      empty={empty}
      minWidth={640}
    />
  );
}

/** Below the list while its later pages load: how many of the stock's are shown so far. */
export const olderSubscribersText = (shown: number, counts: SubscriberCounts) =>
  `Loading more subscribers… ${shown.toLocaleString('en-AU')} of ${(
    counts.pending +
    counts.confirmed +
    counts.unsubscribed
  ).toLocaleString('en-AU')} shown`;
export const OLDER_SUBSCRIBERS_FAILED = 'More subscribers could not be loaded';

/**
 * Staff only: the stock's subscribers of the portal's own double opt-in list (GET /api/admin/subscribers),
 * their counts per status and each subscriber with their dates in Sydney time, newest first.
 */
export function SubscribersSection({ combinedTicker }: { combinedTicker: string }) {
  const headingId = useId();
  const { data, error, isLoading } = useSubscribersQuery(combinedTicker);
  // The newest page first; the rest page by page after it (a stock's tens of thousands).
  const older = useFollowingPages(
    emailMarketingApi.endpoints.olderSubscribers,
    (after) => ({ combinedTicker, after }),
    combinedTicker,
    data?.next,
  );
  const sorted = useMemo(
    () =>
      bySubscribedNewestFirst(
        older.pages.length
          ? [...(data?.subscribers ?? []), ...older.pages.flatMap((p) => p.subscribers)]
          : (data?.subscribers ?? []),
      ),
    [data?.subscribers, older.pages],
  );
  const [filter, setFilter] = useState<SubscriberFilter>('everyone');
  const listed = useMemo(() => {
    if (filter === 'everyone') return sorted;
    const now = Date.now();
    return sorted.filter((s) => subscriberMatches(s, filter, now));
  }, [sorted, filter]);

  return (
    <Paper
      component="section"
      withBorder
      p={{ base: 'sm', sm: 'md' }}
      radius="md"
      aria-labelledby={headingId}
    >
      <Stack gap="sm">
        <Title order={3} id={headingId}>
          Subscribers
        </Title>
        {isLoading ? (
          <Center py="md">
            <Loader size="sm" aria-label="Loading subscribers" />
          </Center>
        ) : !data ? (
          <Alert color="red" role="alert">
            {errorMessageOf(error)}
          </Alert>
        ) : (
          <>
            <SubscriberCountsView counts={data.counts} />
            <SubscriberChoicesView choices={data.choices} />
            <Select
              label="Show"
              data={FILTERS}
              value={filter}
              onChange={(v) => setFilter((v ?? 'everyone') as SubscriberFilter)}
              allowDeselect={false}
              maw={260}
              size="sm"
            />
            <SubscriberList
              subscribers={listed}
              empty={filter === 'everyone' ? undefined : 'No subscribers of this kind'}
            />
            {older.loading && (
              <Group gap="xs" role="status">
                <Loader size="xs" aria-hidden />
                <Text size="sm" c="dimmed">
                  {olderSubscribersText(sorted.length, data.counts)}
                </Text>
              </Group>
            )}
            {older.error && (
              <Alert color="red" role="alert" title={OLDER_SUBSCRIBERS_FAILED}>
                {older.error}
              </Alert>
            )}
          </>
        )}
      </Stack>
    </Paper>
  );
}
