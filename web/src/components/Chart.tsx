import Highcharts, { type Options } from 'highcharts';
import 'highcharts/modules/accessibility';
import HighchartsReact from 'highcharts-react-official';

/**
 * One Highcharts chart. Import this module lazily (React.lazy) from a screen: Highcharts then travels in that
 * screen's chunk, never in the app's main bundle (scripts/test/web-bundle.test.mjs). Its accessibility
 * module makes the chart a region named by its title, with its points readable by screen readers.
 */
export function Chart({ options, className }: { options: Options; className?: string }) {
  return <HighchartsReact highcharts={Highcharts} options={options} containerProps={{ className }} />;
}

export default Chart;
