import { Alert, Text } from '@mantine/core';
import { formatDate, type ReportView } from '@irp/proto';
import { formatCount } from '../../model/format';
import { ReportSection } from './ReportSection';
import { ReportTable, type ReportColumn } from './ReportTable';

type MissingDay = ReportView['reportPeriod']['missingDays'][number];

const MISSING_COLUMNS: readonly ReportColumn<MissingDay>[] = [
  { label: 'Ticker', render: (m) => m.ticker },
  { label: 'Day', render: (m) => formatDate(m.day) },
  { label: 'Reason', render: (m) => m.reason },
];

/**
 * Report period: the dates and trading days, and each stock-day whose market data is missing, so a reader
 * knows a gap in the figures is missing data and not a day without trades.
 */
export function ReportPeriod({ period }: { period: ReportView['reportPeriod'] }) {
  const missing = period.missingDays;
  // Reports stored before the field have none.
  const disabled = period.marketDataDisabled ?? [];
  return (
    <ReportSection title="Report period" testId="report-period">
      <Text>
        {formatDate(period.startDate)} to {formatDate(period.endDate)}: {formatCount(period.tradingDays)}{' '}
        trading day{period.tradingDays === 1 ? '' : 's'}, {formatCount(period.daysWithData)} with market data.
      </Text>
      {disabled.map((ticker) => (
        <Alert key={ticker} color="gray" variant="light" role="note" data-testid="market-data-disabled">
          {ticker} has market data disabled: its trades are not loaded, so it has no figures in this report.
        </Alert>
      ))}
      {missing.length === 0 ? (
        <Text c="dimmed" size="sm">
          Market data is complete for every trading day of the period.
        </Text>
      ) : (
        <>
          <Alert color="yellow" variant="light" role="note" data-testid="missing-days">
            Market data is missing for {missing.length} stock-day{missing.length === 1 ? '' : 's'}: their
            trades are not counted in this report, and those days show as missing rather than as days without
            trades.
          </Alert>
          <ReportTable
            label="Days with missing market data"
            columns={MISSING_COLUMNS}
            rows={missing}
            rowKey={(m) => `${m.ticker} ${m.day}`}
            minWidth={480}
          />
        </>
      )}
    </ReportSection>
  );
}
