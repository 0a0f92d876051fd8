import { Text } from '@mantine/core';
import type { ReportView } from '@irp/proto';
import { useMemo } from 'react';
import { priceOverlayOptions } from '../../model/chartOptions';
import { formatChangePercent } from '../../model/format';
import { ReportChart } from './ReportChart';
import { ReportSection } from './ReportSection';
import { ReportTable, type ReportColumn } from './ReportTable';

type Performance = ReportView['peerPerformance'][number];

const PERFORMANCE_COLUMNS: readonly ReportColumn<Performance>[] = [
  { label: 'Ticker', render: (p) => p.name },
  {
    label: 'Change over the period',
    render: (p) => (p.percentage === null ? 'No trades' : formatChangePercent(p.percentage)),
    numeric: true,
  },
];

/**
 * Price comparison: each stock's change from the period's first open to its last close (peer performance)
 * and, when the report was generated with the price overlay, each day's close as a change in percent.
 */
export function PriceComparison({ report }: { report: ReportView }) {
  const options = useMemo(() => priceOverlayOptions(report.priceComparison), [report.priceComparison]);
  return (
    <ReportSection title="Price comparison" testId="report-price-comparison">
      <Text size="sm">Change from the first open of the period to its last close:</Text>
      <ReportTable
        label="Peer performance"
        columns={PERFORMANCE_COLUMNS}
        rows={report.peerPerformance}
        rowKey={(p) => p.name}
        minWidth={320}
      />
      {report.priceOverlay && <ReportChart options={options} />}
    </ReportSection>
  );
}
