import { Group, Text } from '@mantine/core';
import type { ReportView } from '@irp/proto';
import { useMemo } from 'react';
import { formatDollars } from '@/lib/money';
import { comparativeChartOptions } from '../../model/chartOptions';
import { formatPercent } from '../../model/format';
import { ReportChart } from './ReportChart';
import { ReportSection } from './ReportSection';
import { ReportTable, type ReportColumn } from './ReportTable';

type Activity = NonNullable<ReportView['comparativeTradingActivity']>;
type Item = Activity['items'][number];

const ITEM_COLUMNS: readonly ReportColumn<Item>[] = [
  { label: 'Company', render: (i) => i.name },
  { label: 'Ticker', render: (i) => i.meta.ticker },
  { label: 'Value traded', render: (i) => formatDollars(i.meta.value), numeric: true },
  { label: 'Share of value traded', render: (i) => formatPercent(i.percent), numeric: true },
];

/**
 * Comparative trading activity (spec section 2): percent of the value traded by the ticker and each peer
 * as bars, and the value traded by the ticker and by its peers in dollars.
 */
export function ComparativeTradingActivity({ ticker, activity }: { ticker: string; activity: Activity }) {
  const options = useMemo(() => comparativeChartOptions(activity), [activity]);
  return (
    <ReportSection title="Comparative trading activity" testId="report-comparative">
      <Group gap="xl" wrap="wrap">
        <Text data-testid="target-value">
          Value traded, {ticker}: <b>{formatDollars(activity.targetValue)}</b>
        </Text>
        <Text data-testid="peer-value">
          Value traded, peers: <b>{formatDollars(activity.totalPeerValue)}</b>
        </Text>
      </Group>
      <ReportChart options={options} />
      <ReportTable
        label="Value traded by the ticker and its peers"
        columns={ITEM_COLUMNS}
        rows={activity.items}
        rowKey={(i) => i.meta.ticker}
        minWidth={520}
      />
    </ReportSection>
  );
}
