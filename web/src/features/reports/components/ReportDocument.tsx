import { Stack } from '@mantine/core';
import type { ReportView } from '@irp/proto';
import { ActivitySummary } from './report/ActivitySummary';
import { BrokerActivity, PeerBrokerActivity } from './report/BrokerActivity';
import { ComparativeTradingActivity } from './report/ComparativeTradingActivity';
import { PriceComparison } from './report/PriceComparison';
import { ReportPeriod } from './report/ReportPeriod';
import { TradeAnalysis } from './report/TradeAnalysis';

/**
 * The report's sections in spec section 2's order: activity summary, report period, broker activity for
 * the report's own ticker, comparative trading activity (when generated with it), trade analysis and price
 * comparison, then broker activity (Peers).
 */
export function ReportDocument({ report }: { report: ReportView }) {
  const analyses = report.brokerActivityViewModels.map((model) => model.brokerShareAnalysis);
  const own = analyses.find((analysis) => analysis.ticker === report.ticker);
  const peers = analyses.filter((analysis) => analysis !== own);
  return (
    <Stack gap="xl">
      <ActivitySummary summary={report.activitySummary} />
      <ReportPeriod period={report.reportPeriod} />
      {own && <BrokerActivity analysis={own} />}
      {report.comparativeTradingActivity && (
        <ComparativeTradingActivity ticker={report.ticker} activity={report.comparativeTradingActivity} />
      )}
      <TradeAnalysis report={report} />
      <PriceComparison report={report} />
      {peers.length > 0 && <PeerBrokerActivity analyses={peers} />}
    </Stack>
  );
}
