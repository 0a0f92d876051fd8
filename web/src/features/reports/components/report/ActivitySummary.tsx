import { Paper, SimpleGrid, Text } from '@mantine/core';
import type { ReportView } from '@irp/proto';
import { formatDollars } from '@/lib/money';
import { formatChangePercent, formatCount, formatPrice } from '../../model/format';
import { ReportSection } from './ReportSection';

/** One figure of the summary: its name above its value. */
function Figure({ label, value }: { label: string; value: string }) {
  return (
    <Paper withBorder p="xs" radius="sm">
      <Text size="xs" c="dimmed" component="dt">
        {label}
      </Text>
      <Text fw={600} component="dd" m={0} style={{ overflowWrap: 'anywhere' }}>
        {value || '—'}
      </Text>
    </Paper>
  );
}

/** Activity summary (docs/api/reports.md): the ticker's trading over the period in figures and a sentence. */
export function ActivitySummary({ summary }: { summary: ReportView['activitySummary'] }) {
  return (
    <ReportSection title="Activity summary" testId="report-activity-summary">
      <Text>{summary.text}</Text>
      <SimpleGrid component="dl" m={0} cols={{ base: 2, sm: 3, md: 6 }} spacing="xs">
        <Figure label="Trades" value={formatCount(summary.numTrades)} />
        <Figure label="Volume" value={formatCount(summary.totalVolume)} />
        <Figure label="Value traded" value={formatDollars(summary.totalValue)} />
        <Figure label="Average daily value" value={formatDollars(summary.averageDailyValue)} />
        <Figure label="VWAP" value={formatPrice(summary.vwap)} />
        <Figure label="Brokers" value={formatCount(summary.brokerCount)} />
        <Figure label="Open" value={formatPrice(summary.open)} />
        <Figure label="High" value={formatPrice(summary.high)} />
        <Figure label="Low" value={formatPrice(summary.low)} />
        <Figure label="Close" value={formatPrice(summary.close)} />
        <Figure label="Change (open to close)" value={formatChangePercent(summary.changePercent)} />
      </SimpleGrid>
    </ReportSection>
  );
}
