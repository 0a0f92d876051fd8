import { Badge, List, Text } from '@mantine/core';
import { formatDate, formatDateTime, type ReportView } from '@irp/proto';
import { formatDollars } from '@/lib/money';
import { formatCount, formatPrice } from '../../model/format';
import { PreReleaseFlags } from './PreReleaseFlags';
import { ReportSection } from './ReportSection';
import { ReportTable, type ReportColumn } from './ReportTable';

type Day = ReportView['tradeAnalysis'][number];

function Announcements({ day }: { day: Day }) {
  if (day.announcements.length === 0) return null;
  return (
    <List size="sm" spacing={2} listStyleType="none" p={0}>
      {day.announcements.map((a) => (
        <List.Item key={`${a.date} ${a.headline}`}>
          <Text span size="xs" c="dimmed">
            {formatDateTime(a.date)}
          </Text>{' '}
          {a.headline}{' '}
          {a.priceSensitive && (
            <Badge size="xs" color="red" variant="light">
              Price sensitive
            </Badge>
          )}
        </List.Item>
      ))}
    </List>
  );
}

const DAY_COLUMNS: readonly ReportColumn<Day>[] = [
  { label: 'Day', render: (d) => formatDate(d.day) },
  { label: 'Trades', render: (d) => formatCount(d.numTrades), numeric: true },
  { label: 'Value traded', render: (d) => formatDollars(d.trVal), numeric: true },
  { label: 'Average size', render: (d) => formatCount(d.avgSize), numeric: true },
  { label: 'High', render: (d) => formatPrice(d.high), numeric: true },
  { label: 'Low', render: (d) => formatPrice(d.low), numeric: true },
  { label: 'Close', render: (d) => formatPrice(d.close), numeric: true },
  { label: 'Announcements', render: (d) => <Announcements day={d} /> },
];

/**
 * A day whose trades are missing says so across its figures (docs/api/reports.md: its figures are null,
 * never zeros); its announcements still show.
 */
function missingNote(day: Day) {
  if (!day.missingData) return undefined;
  return (
    <>
      <Text size="sm" c="orange.8" fw={500} data-testid="missing-day">
        Market data missing for this day
      </Text>
      <Announcements day={day} />
    </>
  );
}

/** Trade analysis: each trading day of the ticker with the day's announcements, then pre-release trading. */
export function TradeAnalysis({ report }: { report: ReportView }) {
  return (
    <ReportSection title="Trade analysis" testId="report-trade-analysis">
      <ReportTable
        label={`Trade analysis of ${report.ticker} by day`}
        columns={DAY_COLUMNS}
        rows={report.tradeAnalysis}
        rowKey={(d) => d.day}
        minWidth={900}
        noteOf={missingNote}
      />
      <PreReleaseFlags preRelease={report.preRelease} />
    </ReportSection>
  );
}
