import { Alert, Progress, Stack, Text } from '@mantine/core';
import { syncProgressText, type InitialPollProgress } from '@irp/proto';
import { syncProgressPercent } from '@/lib/initialPoll';

/**
 * 'Sync in Progress' with the initial poll's progress (e.g. 'Sync in Progress: 2019 of 2026, 340
 * announcements') and a bar of the years read from the start year to now.
 */
export function SyncProgress({ initialPoll }: { initialPoll: InitialPollProgress | null }) {
  const percent = syncProgressPercent(initialPoll);
  return (
    <Alert color="orange" variant="light" data-testid="sync-progress">
      <Stack gap={6}>
        <Text size="sm" fw={500} role="status">
          {syncProgressText(initialPoll)}
        </Text>
        <Progress
          value={percent}
          animated
          aria-label="Sync progress"
          // Without a run (e.g. polling not switched on yet) there is no progress to report.
          style={{ visibility: initialPoll ? 'visible' : 'hidden' }}
        />
        {initialPoll && (
          <Text size="xs" c="dimmed">
            Reading announcements from {initialPoll.fromYear} to {initialPoll.toYear}
          </Text>
        )}
      </Stack>
    </Alert>
  );
}
