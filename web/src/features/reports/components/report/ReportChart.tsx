import Highcharts, { type Options } from 'highcharts';
import 'highcharts/modules/accessibility';
import HighchartsReact from 'highcharts-react-official';
import classes from './ReportPage.module.css';

/**
 * One Highcharts chart of the report page. Highcharts is imported here only, so it travels in the report
 * page's lazy chunk and never in the app's main bundle (scripts/test/web-bundle.test.mjs). Its
 * accessibility module makes the chart a region named by its title, with its points readable by screen
 * readers.
 */
export function ReportChart({ options }: { options: Options }) {
  return (
    <HighchartsReact
      highcharts={Highcharts}
      options={options}
      containerProps={{ className: classes.chart }}
    />
  );
}
