import {
  Alert,
  Anchor,
  Button,
  Group,
  Progress,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { asxTradingDaysBetween, formatDateTime, previousCalendarMonth, type ReportSummary } from '@irp/proto';
import { useEffect, useState } from 'react';
import { DataTable, type DataColumn } from '@/components/DataTable';
import { errorMessageOf } from '@/lib/apiError';
import type { StaffStockTabProps } from '@/lib/tabs/stockPageTabs';
import { useGenerateReportMutation, useReportsQuery, type GenerateReportValues } from '../api/reportsApi';
import { openReportWindow } from './reportWindow';

const yesNo = (flag: boolean) => (flag ? 'Yes' : 'No');

const COLUMNS: readonly DataColumn<ReportSummary>[] = [
  {
    label: 'Report',
    render: (report) => (
      <Anchor href={`/report/${report.guid}`} target="_blank" rel="noopener">
        {report.startDate} to {report.endDate}
      </Anchor>
    ),
    nowrap: true,
  },
  { label: 'Created', render: (report) => formatDateTime(report.created), nowrap: true },
  { label: 'Peers', render: (report) => report.peers.join(', ') || '—' },
  { label: 'Comparative', render: (report) => yesNo(report.comparativeTradingActivity) },
  { label: 'Price overlay', render: (report) => yesNo(report.priceOverlay) },
  { label: 'Search', render: (report) => yesNo(report.allowSearch) },
];

/** Seconds since `since` while it is set: a long range takes a while, and the page says how long so far. */
function useElapsedSeconds(since: number | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (since === null) return undefined;
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, [since]);
  return since === null ? 0 : Math.max(0, Math.round((now - since) / 1000));
}

/** How many ASX trading days the form's range covers (0 when the dates are not a range yet). */
function tradingDaysOf(startDate: string, endDate: string): number {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(startDate) || !/^\d{4}-\d{2}-\d{2}$/.test(endDate)) return 0;
  return startDate <= endDate ? asxTradingDaysBetween(startDate, endDate).length : 0;
}

/**
 * Staff stock page, Reports tab (admins and report-runners, spec section 2): the report form (dates
 * default to the previous calendar month), Generate (the new report opens in a new window and heads the
 * list; a refusal is an alert of its errorMessage, spec section 8) and the stock's reports.
 */
export function ReportsTab({ stock }: StaffStockTabProps) {
  const [values, setValues] = useState<GenerateReportValues>(() => ({
    ticker: stock.combinedTicker,
    ...previousCalendarMonth(),
    peers: '',
    comparativeTradingActivity: false,
    priceOverlay: false,
    // Off unless the staff member chooses it: anyone with the report's link may then search other dates.
    allowSearch: false,
  }));
  const [generateReport] = useGenerateReportMutation();
  const [startedAt, setStartedAt] = useState<number | null>(null);
  const elapsed = useElapsedSeconds(startedAt);
  const { data: reports, error, isLoading } = useReportsQuery(stock.combinedTicker);
  const days = tradingDaysOf(values.startDate, values.endDate);

  const change = (patch: Partial<GenerateReportValues>) => setValues((current) => ({ ...current, ...patch }));

  async function generate() {
    // Opened now, while the click still counts as the user's: a window opened after the answer would be
    // blocked as a pop-up. It shows the report once there is one.
    const reportWindow = openReportWindow();
    setStartedAt(Date.now());
    try {
      const { report } = await generateReport(values).unwrap();
      if (!report) throw new Error('The report was not generated');
      reportWindow.show(report.guid);
    } catch (failure) {
      reportWindow.close();
      window.alert(errorMessageOf(failure));
    } finally {
      setStartedAt(null);
    }
  }

  const generating = startedAt !== null;
  return (
    <Stack gap="xl" maw={1100}>
      <Stack gap="sm">
        <Title order={3}>Generate a Report</Title>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <TextInput
            type="date"
            label="Start Date"
            value={values.startDate}
            onChange={(event) => change({ startDate: event.currentTarget.value })}
          />
          <TextInput
            type="date"
            label="End Date"
            value={values.endDate}
            onChange={(event) => change({ endDate: event.currentTarget.value })}
          />
          <TextInput
            label="Peers"
            placeholder="e.g. RIO FMG"
            description="Tickers separated by spaces or commas (at most 20)"
            value={values.peers}
            onChange={(event) => change({ peers: event.currentTarget.value })}
          />
        </SimpleGrid>
        <Group>
          <Switch
            label="Comparative Trading Activity"
            checked={values.comparativeTradingActivity}
            onChange={(event) => change({ comparativeTradingActivity: event.currentTarget.checked })}
          />
          <Switch
            label="Price Overlay"
            checked={values.priceOverlay}
            onChange={(event) => change({ priceOverlay: event.currentTarget.checked })}
          />
          <Switch
            label="Allow search"
            checked={values.allowSearch}
            onChange={(event) => change({ allowSearch: event.currentTarget.checked })}
          />
        </Group>
        <Group>
          <Button onClick={() => void generate()} disabled={generating}>
            {generating ? 'Generating...' : 'Generate'}
          </Button>
          {days > 0 && !generating && (
            <Text size="sm" c="dimmed">
              {days} trading {days === 1 ? 'day' : 'days'}
            </Text>
          )}
        </Group>
        {generating && (
          <Stack gap={4} role="status" aria-label="Report progress">
            <Progress value={100} animated striped />
            <Text size="sm">
              Generating the report over {days} trading {days === 1 ? 'day' : 'days'}: {elapsed} s
            </Text>
          </Stack>
        )}
      </Stack>
      <Stack gap="sm">
        <Title order={3}>Reports</Title>
        {error ? (
          <Alert color="red" role="alert">
            {errorMessageOf(error)}
          </Alert>
        ) : (
          <DataTable
            label="Reports"
            columns={COLUMNS}
            rows={reports ?? []}
            rowKey={(report) => report.guid}
            empty={isLoading ? 'Loading...' : 'No reports yet'}
          />
        )}
      </Stack>
    </Stack>
  );
}
