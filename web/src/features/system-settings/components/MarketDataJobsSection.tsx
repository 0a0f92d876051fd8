import { Alert, Button, Progress, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { ResponseOf } from '@/api/route';
import { routes } from '@/api/routes';
import { Section } from '@/components/Section';
import { errorMessageOf } from '@/lib/apiError';
import { DataTable, type DataColumn } from '@/components/DataTable';
import { useRunPriorDayMutation, useSyncWatchlistMutation } from '../api/systemSettingsApi';

type SyncResult = ResponseOf<typeof routes.reports.syncWatchlist>;
type PriorDayResult = ResponseOf<typeof routes.reports.runPriorDay>;
/** What both jobs answer (the rest of each answer goes into its summary). */
type JobResult = Pick<SyncResult, 'success' | 'failed' | 'errorMessage'>;

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

/** The texts of the two jobs: the button, the confirmation and the one-line result. */
export const marketJobTexts = {
  syncWatchlist: {
    button: 'Sync Watchlist',
    confirm:
      "Sync the watchlist now? The current quote of every stock with market data enabled is read from the market-data provider, replacing quotes entered on a stock's Market tab too.",
    summary: (result: SyncResult) =>
      `Quotes updated: ${result.updated} of ${plural(result.stocks, 'stock')}` +
      (result.manualReplaced.length ? ` (manual quotes replaced: ${result.manualReplaced.join(', ')})` : ''),
  },
  runPriorDay: {
    button: 'Run Prior Day',
    confirm:
      'Run the prior day now? The latest trading day the provider has published (broker-level trades are published three trading days later) is loaded for every stock with market data enabled; stocks already loaded for that day are skipped.',
    summary: (result: PriorDayResult) =>
      `${result.day}: ${result.loaded} of ${plural(result.stocks, 'stock')} loaded (${result.trades} trades), ${result.skipped} already loaded` +
      (result.unpublished
        ? `, ${result.unpublished} not published by the provider yet (asked again at the next run)`
        : ''),
  },
} as const;

const FAILURE_COLUMNS: DataColumn<JobResult['failed'][number]>[] = [
  { label: 'Ticker', render: (row) => row.ticker, nowrap: true },
  { label: 'Problem', render: (row) => row.errorMessage },
];

interface JobToolProps<R extends JobResult> {
  texts: { button: string; confirm: string; summary: (result: R) => string };
  run: () => Promise<R>;
}

/**
 * One job: run it after a confirmation, show that it runs (the call answers when the job is done, so the
 * progress has no steps to count), then its result and each stock that failed.
 */
function JobTool<R extends JobResult>({ texts, run }: JobToolProps<R>) {
  const [running, setRunning] = useState(false);
  const [result, setResult] = useState<R | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  async function start() {
    if (!window.confirm(texts.confirm)) return;
    setRunning(true);
    setResult(null);
    setFailure(null);
    try {
      setResult(await run());
    } catch (error) {
      setFailure(errorMessageOf(error));
    } finally {
      setRunning(false);
    }
  }

  return (
    <Stack gap="xs" aria-label={texts.button} role="group">
      <Button onClick={() => void start()} loading={running} w="fit-content">
        {texts.button}
      </Button>
      {running && (
        <Stack gap={4}>
          <Text size="sm" role="status">
            Running...
          </Text>
          <Progress value={100} animated striped aria-label={`${texts.button} progress`} />
        </Stack>
      )}
      {failure && (
        <Alert color="red" role="alert">
          {failure}
        </Alert>
      )}
      {result && (
        <>
          <Alert color={result.success ? 'green' : 'yellow'} role="status">
            {texts.summary(result)}
            {result.errorMessage ? `. ${result.errorMessage}` : ''}
          </Alert>
          {result.failed.length > 0 && (
            <DataTable
              label={`${texts.button} failures`}
              columns={FAILURE_COLUMNS}
              rows={result.failed}
              rowKey={(row) => row.ticker}
            />
          )}
        </>
      )}
    </Stack>
  );
}

/**
 * Market data: the watchlist sync and the prior day's trades load, run now instead of waiting for their
 * schedule. Admin only, as the routes are (`access.admin()` in proto's reports routes), like the screen.
 */
export function MarketDataJobsSection() {
  const [sync] = useSyncWatchlistMutation();
  const [priorDay] = useRunPriorDayMutation();
  return (
    <Section
      title="Market data"
      description="Runs the market-data jobs now instead of waiting for their schedule. Stocks with market data disabled are left out."
    >
      <JobTool texts={marketJobTexts.syncWatchlist} run={() => sync().unwrap()} />
      <JobTool texts={marketJobTexts.runPriorDay} run={() => priorDay().unwrap()} />
    </Section>
  );
}
