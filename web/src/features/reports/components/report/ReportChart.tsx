import Highcharts, { type Chart, type Options } from 'highcharts';
import 'highcharts/modules/accessibility';
import HighchartsReact from 'highcharts-react-official';
import { useMemo } from 'react';
import classes from './ReportPage.module.css';

/**
 * Paper is narrower than the screen, and print CSS scales the chart's svg to it (ReportPage.module.css). Scaled
 * without a viewBox the drawing would be cut, not shrunk, and Highcharts sets one only once a chart has been
 * resized: so every drawing sets it.
 */
function keepProportions(this: Chart) {
  this.renderer.box.setAttribute('viewBox', `0 0 ${this.chartWidth} ${this.chartHeight}`);
}

/**
 * One Highcharts chart of the report page. Highcharts is imported here only, so it travels in the report
 * page's lazy chunk and never in the app's main bundle (scripts/test/web-bundle.test.mjs). Its accessibility
 * module makes the chart a region named by its title, with its points readable by screen readers.
 */
export function ReportChart({ options }: { options: Options }) {
  const printable = useMemo<Options>(
    () => ({
      ...options,
      chart: { ...options.chart, events: { ...options.chart?.events, render: keepProportions } },
    }),
    [options],
  );
  return (
    <HighchartsReact
      highcharts={Highcharts}
      options={printable}
      containerProps={{ className: classes.chart }}
    />
  );
}
