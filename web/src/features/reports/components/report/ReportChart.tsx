import type { Chart as HighchartsChart, Options } from 'highcharts';
import { useMemo } from 'react';
import { Chart } from '@/components/Chart';
import classes from './ReportPage.module.css';

/**
 * Paper is narrower than the screen, and print CSS scales the chart's svg to it (ReportPage.module.css). Scaled
 * without a viewBox the drawing would be cut, not shrunk, and Highcharts sets one only once a chart has been
 * resized: so every drawing sets it.
 */
function keepProportions(this: HighchartsChart) {
  this.renderer.box.setAttribute('viewBox', `0 0 ${this.chartWidth} ${this.chartHeight}`);
}

/** One chart of the report page (components/Chart: Highcharts in the report page's lazy chunk only). */
export function ReportChart({ options }: { options: Options }) {
  const printable = useMemo<Options>(
    () => ({
      ...options,
      chart: { ...options.chart, events: { ...options.chart?.events, render: keepProportions } },
    }),
    [options],
  );
  return <Chart options={printable} className={classes.chart} />;
}
