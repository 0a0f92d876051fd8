import { Alert, Text } from '@mantine/core';
import { formatDate, type PreReleaseFlag, type ReportView } from '@irp/proto';
import { formatDollars } from '@/lib/money';
import { formatCount } from '../../model/format';
import { ReportSection } from './ReportSection';
import { ReportTable, type ReportColumn } from './ReportTable';

const FLAG_COLUMNS: readonly ReportColumn<PreReleaseFlag>[] = [
  {
    label: 'Announcement',
    render: (f) => (
      <>
        <Text span size="xs" c="dimmed">
          {formatDate(f.announcementDate)}
        </Text>{' '}
        {f.headline}
      </>
    ),
  },
  { label: 'Broker', render: (f) => f.broker },
  { label: 'Position', render: (f) => (f.netVol >= 0 ? 'Net buying' : 'Net selling') },
  { label: 'Sessions', render: (f) => `${formatDate(f.sessions[0])} to ${formatDate(f.sessions.at(-1))}` },
  { label: 'Net volume', render: (f) => formatCount(f.netVol), numeric: true },
  { label: 'Net value', render: (f) => formatDollars(f.netVal), numeric: true },
  { label: 'Usual net volume', render: (f) => formatCount(f.baselineNetVol), numeric: true },
  { label: 'Usual spread', render: (f) => formatCount(f.baselineSpread), numeric: true },
  { label: 'Spreads from usual', render: (f) => Math.abs(f.score).toFixed(1), numeric: true },
];

/**
 * Brokers whose net position in the sessions before a price-sensitive announcement stood out from their
 * own usual trading (docs/api/reports.md, preRelease): what was looked at, then the flags or that none.
 */
export function PreReleaseFlags({ preRelease }: { preRelease: ReportView['preRelease'] }) {
  const { flags } = preRelease;
  return (
    <ReportSection title="Trading before price-sensitive announcements" order={4} testId="report-pre-release">
      <Text size="sm">
        For each price-sensitive announcement of the period, each broker&apos;s net volume (bought less sold)
        over the {preRelease.sessionsBefore} sessions before the announcement is compared with its usual net
        volume over {preRelease.sessionsBefore}-session windows of the {preRelease.baselineSessions} sessions
        before that. A broker is listed when its position is at least {preRelease.threshold} spreads from its
        usual one and a notable share of the sessions&apos; volume. A listing is a pattern worth a look, not a
        finding of wrongdoing.
      </Text>
      {flags.length === 0 ? (
        <Text c="dimmed" data-testid="no-pre-release-flags">
          No broker&apos;s net position before a price-sensitive announcement stood out.
        </Text>
      ) : (
        <>
          <Alert color="orange" variant="light" role="note" data-testid="pre-release-flagged">
            {flags.length === 1
              ? "1 broker's net position before a price-sensitive announcement stood out."
              : `${flags.length} brokers' net positions before price-sensitive announcements stood out.`}
          </Alert>
          <ReportTable
            label="Brokers whose position before a price-sensitive announcement stood out"
            columns={FLAG_COLUMNS}
            rows={flags}
            rowKey={(f) => `${f.announcementDate} ${f.broker}`}
            minWidth={1100}
          />
        </>
      )}
    </ReportSection>
  );
}
