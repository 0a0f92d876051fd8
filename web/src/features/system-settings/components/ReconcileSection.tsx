import { Alert, Button, Group, Progress, Stack, Text, TextInput } from '@mantine/core';
import { skipToken } from '@reduxjs/toolkit/query';
import { formatDateTime, type Reconcile } from '@irp/proto';
import { useEffect, useState } from 'react';
import { Section } from '@/components/Section';
import { errorMessageOf } from '@/lib/apiError';
import {
  useApplyReconcileMutation,
  useGetReconcileQuery,
  useLastReconcileQuery,
  useRunReconcileMutation,
} from '../api/systemSettingsApi';
import { DataTable, type DataColumn } from '@/components/DataTable';

/** While a run goes on, look again this often for its progress. */
export const RECONCILE_POLL_MS = 1000;

const DEFAULT_DAYS = '7';

interface ResultRow {
  ticker: string;
  date: string;
  headline: string;
  priceSensitive: boolean;
}

const COLUMNS: DataColumn<ResultRow>[] = [
  { label: 'Ticker', render: (row) => row.ticker, nowrap: true },
  { label: 'Date', render: (row) => formatDateTime(row.date), nowrap: true },
  { label: 'Headline', render: (row) => row.headline },
  { label: 'Price sensitive', render: (row) => (row.priceSensitive ? 'Yes' : 'No') },
];

/** One row per missing announcement, ticker by ticker as the run lists them. */
const resultRows = (reconcile: Reconcile): ResultRow[] =>
  reconcile.results.flatMap((result) =>
    result.newAnnouncements.map((item) => ({ ticker: result.ticker, ...item })),
  );

export const confirmTexts = {
  run: (days: string) =>
    `Run a reconcile of the last ${days} days? Every polled stock is compared with the announcement source; nothing is stored until you apply it.`,
  apply: (count: number) =>
    `Store the ${count} missing announcement${count === 1 ? '' : 's'}? Apply stores them, never sends them.`,
};

function ReconcileStatus({ reconcile }: { reconcile: Reconcile }) {
  const percent = reconcile.total > 0 ? Math.round((reconcile.checked / reconcile.total) * 100) : 0;
  const progress = `Checked ${reconcile.checked} of ${reconcile.total} stocks`;
  const started = `Started ${formatDateTime(reconcile.startedAt)}, last ${reconcile.numDays} days`;
  if (reconcile.status === 'running') {
    return (
      <Stack gap={4} data-testid="reconcile-status">
        <Text size="sm" role="status">
          Running: {progress}
        </Text>
        <Progress value={percent} animated aria-label="Reconcile progress" />
        <Text size="xs" c="dimmed">
          {started}
        </Text>
      </Stack>
    );
  }
  if (reconcile.status === 'failed') {
    return (
      <Alert color="red" title="The reconcile failed" data-testid="reconcile-status">
        {reconcile.error ?? 'The announcement source could not be read.'} ({started})
      </Alert>
    );
  }
  return (
    <Stack gap={2} data-testid="reconcile-status">
      <Text size="sm" role="status">
        {reconcile.status === 'applied'
          ? `Applied: ${reconcile.applied ?? 0} announcement${reconcile.applied === 1 ? '' : 's'} stored`
          : `Completed: ${progress}`}
      </Text>
      <Text size="xs" c="dimmed">
        {started}
        {reconcile.completedAt ? `; completed ${formatDateTime(reconcile.completedAt)}` : ''}
      </Text>
    </Stack>
  );
}

/**
 * Reconcile: what the announcement source has in the last N days that the portal does not. Run (confirmed
 * first), follow its progress, then Apply to store what it found (confirmed; never sent). The last run
 * shows on load.
 */
export function ReconcileSection() {
  const [days, setDays] = useState(DEFAULT_DAYS);
  const [runId, setRunId] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const { data: last, error: lastError } = useLastReconcileQuery();
  const [run, { isLoading: starting }] = useRunReconcileMutation();
  const [apply, { isLoading: applying }] = useApplyReconcileMutation();

  // The run started here, or one still going on when the screen opened.
  const activeId = runId ?? (last?.status === 'running' ? last.id : null);
  const [pollingInterval, setPollingInterval] = useState(RECONCILE_POLL_MS);
  const { data: active } = useGetReconcileQuery(activeId ?? skipToken, { pollingInterval });
  const shown = (active && active.id === activeId ? active : null) ?? last ?? null;

  const status = active?.status;
  useEffect(() => {
    setPollingInterval(status === undefined || status === 'running' ? RECONCILE_POLL_MS : 0);
  }, [status, activeId]);

  async function start() {
    if (!window.confirm(confirmTexts.run(days.trim()))) return;
    setFailure(null);
    try {
      const started = await run(Number(days.trim())).unwrap();
      setRunId(started.id);
    } catch (error) {
      setFailure(errorMessageOf(error));
    }
  }

  const rows = shown ? resultRows(shown) : [];

  async function applyShown() {
    if (!shown || !window.confirm(confirmTexts.apply(rows.length))) return;
    setFailure(null);
    try {
      await apply(shown.id).unwrap();
    } catch (error) {
      setFailure(errorMessageOf(error));
    }
  }

  const running = shown?.status === 'running';
  return (
    <Section
      title="Reconcile"
      description="Finds announcements the source published in the last days that the portal does not have."
    >
      <Group gap="sm" align="flex-end" wrap="wrap">
        <TextInput
          label="Number of days"
          type="number"
          inputMode="numeric"
          min={1}
          max={90}
          value={days}
          onChange={(event) => setDays(event.currentTarget.value)}
          w={{ base: '100%', xs: 160 }}
        />
        <Button onClick={() => void start()} loading={starting} disabled={running}>
          Run Reconcile
        </Button>
      </Group>
      {(failure ?? lastError) && (
        <Alert color="red" role="alert">
          {failure ?? errorMessageOf(lastError)}
        </Alert>
      )}
      {shown === null && !lastError && (
        <Text size="sm" c="dimmed">
          No reconcile has run yet.
        </Text>
      )}
      {shown && (
        <Stack gap="sm">
          <ReconcileStatus reconcile={shown} />
          {shown.status !== 'failed' && (
            <DataTable
              label="Reconcile results"
              columns={COLUMNS}
              rows={rows}
              rowKey={(row, index) => `${row.ticker}-${row.date}-${index}`}
              empty={running ? 'Nothing missing so far.' : 'No missing announcements.'}
            />
          )}
          {shown.status === 'completed' && rows.length > 0 && (
            <Button onClick={() => void applyShown()} loading={applying} w="fit-content">
              Apply
            </Button>
          )}
        </Stack>
      )}
    </Section>
  );
}
