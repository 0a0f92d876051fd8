import { Text } from '@mantine/core';
import type { BrokerShare, ReportView } from '@irp/proto';
import { useMemo } from 'react';
import { formatDollars } from '@/lib/money';
import { brokerChartOptions, TOP_BROKERS } from '../../model/chartOptions';
import { formatCount, formatPercent, formatPrice } from '../../model/format';
import { ReportChart } from './ReportChart';
import { ReportSection } from './ReportSection';
import { ReportTable, type ReportColumn } from './ReportTable';

type BrokerShareAnalysis = ReportView['brokerActivityViewModels'][number]['brokerShareAnalysis'];

/** The broker share figures (spec section 3), money in dollars. */
const BROKER_COLUMNS: readonly ReportColumn<BrokerShare>[] = [
  { label: 'Broker', render: (b) => b.name },
  { label: 'Total value', render: (b) => formatDollars(b.totVal), numeric: true },
  { label: 'Net value', render: (b) => formatDollars(b.netVal), numeric: true },
  { label: 'Net volume', render: (b) => formatCount(b.netVol), numeric: true },
  { label: 'Sells', render: (b) => formatCount(b.sells), numeric: true },
  { label: 'Sell volume', render: (b) => formatCount(b.sellVol), numeric: true },
  { label: 'Sell price', render: (b) => formatPrice(b.sellPrice), numeric: true },
  { label: 'Sell value', render: (b) => formatDollars(b.sellValue), numeric: true },
  { label: 'Buys', render: (b) => formatCount(b.buys), numeric: true },
  { label: 'Buy volume', render: (b) => formatCount(b.buyVol), numeric: true },
  { label: 'Buy price', render: (b) => formatPrice(b.buyPrice), numeric: true },
  { label: 'Buy value', render: (b) => formatDollars(b.buyValue), numeric: true },
  { label: 'Trades', render: (b) => formatCount(b.trades), numeric: true },
  { label: 'Traded %', render: (b) => formatPercent(b.tradedPercent), numeric: true },
];

/** One stock's top brokers: its totals, the buy/sell chart and the broker share table. */
export function BrokerShareAnalysisView({ analysis }: { analysis: BrokerShareAnalysis }) {
  const options = useMemo(() => brokerChartOptions(analysis), [analysis]);
  const shown = Math.min(analysis.brokers.length, TOP_BROKERS);
  return (
    <>
      <Text size="sm">
        {formatCount(analysis.numTrades)} trades worth {formatDollars(analysis.totalValue)} (
        {formatCount(analysis.totalVolume)} shares) between {formatCount(analysis.brokerCount)} brokers; the
        top {shown} by value traded:
      </Text>
      <ReportChart options={options} />
      <ReportTable
        label={`Broker share analysis of ${analysis.ticker}`}
        columns={BROKER_COLUMNS}
        rows={analysis.brokers}
        rowKey={(b) => b.name}
        minWidth={1180}
      />
    </>
  );
}

/** Broker activity for the report's own ticker. */
export function BrokerActivity({ analysis }: { analysis: BrokerShareAnalysis }) {
  return (
    <ReportSection title={`Broker activity: ${analysis.ticker}`} testId="report-broker-activity">
      <BrokerShareAnalysisView analysis={analysis} />
    </ReportSection>
  );
}

/** Broker activity (Peers): the same for each peer, one part per ticker. */
export function PeerBrokerActivity({ analyses }: { analyses: readonly BrokerShareAnalysis[] }) {
  return (
    <ReportSection title="Broker activity (Peers)" testId="report-peer-broker-activity">
      {analyses.map((analysis) => (
        <ReportSection key={analysis.ticker} title={analysis.ticker} order={4}>
          <BrokerShareAnalysisView analysis={analysis} />
        </ReportSection>
      ))}
    </ReportSection>
  );
}
