import type { Options, Point, SeriesBarOptions, SeriesColumnOptions, SeriesLineOptions } from 'highcharts';
import { formatDate, type ReportView } from '@irp/proto';
import { formatDollars } from '@/lib/money';
import { formatChangePercent, formatCompactDollars, formatPercent } from './format';

/**
 * The report page's Highcharts options, built here as plain data so unit tests can read them without a
 * browser (jsdom lays out no SVG). Only types come from Highcharts: the library itself loads with the
 * report page's chunk (components/ReportChart.tsx).
 */

/** Spec section 9: chart bars are 15 px wide. */
export const BAR_WIDTH = 15;
/** Spec section 9: the broker charts show the top 20 brokers (the view already holds only those). */
export const TOP_BROKERS = 20;

type BrokerShareAnalysis = ReportView['brokerActivityViewModels'][number]['brokerShareAnalysis'];
type ComparativeTradingActivity = NonNullable<ReportView['comparativeTradingActivity']>;
type PriceComparison = ReportView['priceComparison'];

/** What each point of the broker and comparative charts carries for its tooltip (`point.custom`). */
interface BrokerPointData {
  broker: string;
  buyValue: number;
  sellValue: number;
  netValue: number;
}
interface ComparativePointData {
  ticker: string;
  value: number;
}

/** Text from the report (company and broker names) inside a tooltip, which Highcharts reads as HTML. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

// Printing scales the page: without animation the charts are drawn whole when the print snapshot is taken.
const STATIC_CHART = { animation: false, reflow: true } as const;

// Mantine's green.8 and red.8, the page's colours for buying and selling.
const BOUGHT_COLOR = '#2f9e44';
const SOLD_COLOR = '#e03131';

/** Height that gives each broker's row room for its 15 px bar and its label. */
const brokerChartHeight = (brokers: number): number => 90 + Math.max(brokers, 1) * 28;

/** The broker tooltip: the broker, what it bought and sold, and its net. */
export function brokerTooltip(data: BrokerPointData): string {
  return [
    `<b>${escapeHtml(data.broker)}</b>`,
    `Bought: ${formatDollars(data.buyValue)}`,
    `Sold: ${formatDollars(data.sellValue)}`,
    `Net: ${formatDollars(data.netValue)}`,
  ].join('<br/>');
}

/**
 * A stock's top brokers as horizontal bars: the value each bought to the right, what it sold to the left
 * (stacked on one row per broker, so the 20 rows stay readable on a phone). Series 0 is the buys.
 */
export function brokerChartOptions(analysis: BrokerShareAnalysis): Options {
  const brokers = analysis.brokers.slice(0, TOP_BROKERS);
  const custom = (b: (typeof brokers)[number]): BrokerPointData => ({
    broker: b.name,
    buyValue: b.buyValue,
    sellValue: b.sellValue,
    netValue: b.netVal,
  });
  const buys: SeriesBarOptions = {
    type: 'bar',
    name: 'Bought',
    color: BOUGHT_COLOR,
    data: brokers.map((b) => ({ y: b.buyValue, custom: custom(b) })),
  };
  const sells: SeriesBarOptions = {
    type: 'bar',
    name: 'Sold',
    color: SOLD_COLOR,
    data: brokers.map((b) => ({ y: -b.sellValue, custom: custom(b) })),
  };
  return {
    chart: { ...STATIC_CHART, type: 'bar', height: brokerChartHeight(brokers.length) },
    title: { text: `Top ${TOP_BROKERS} brokers of ${analysis.ticker} by value traded` },
    xAxis: { categories: brokers.map((b) => b.name), title: { text: null } },
    yAxis: {
      title: { text: 'Value (A$): sold ← → bought' },
      // Sells are drawn as negative values: the axis reads amounts either side of zero.
      labels: { formatter: ({ value }) => formatCompactDollars(Math.abs(Number(value))) },
    },
    tooltip: {
      formatter: function (this: Point) {
        return brokerTooltip(this.options.custom as BrokerPointData);
      },
    },
    plotOptions: { bar: { stacking: 'normal', pointWidth: BAR_WIDTH, animation: false } },
    series: [buys, sells],
  };
}

/** The comparative tooltip (spec section 2): the item's ticker and the value it traded, in dollars. */
export function comparativeTooltip(data: ComparativePointData, percent: number): string {
  return [
    `<b>${escapeHtml(data.ticker)}</b>`,
    `Value traded: ${formatDollars(data.value)}`,
    `Share of value traded: ${formatPercent(percent)}`,
  ].join('<br/>');
}

/** Comparative trading activity (spec section 2): each stock's share of the value traded, as bars. */
export function comparativeChartOptions(activity: ComparativeTradingActivity): Options {
  const series: SeriesColumnOptions = {
    type: 'column',
    name: 'Share of value traded',
    data: activity.items.map((item) => ({
      y: item.percent,
      custom: { ticker: item.meta.ticker, value: item.meta.value } satisfies ComparativePointData,
    })),
  };
  return {
    chart: { ...STATIC_CHART, type: 'column' },
    title: { text: 'Share of value traded' },
    xAxis: { categories: activity.items.map((item) => item.name) },
    yAxis: { title: { text: '% of value traded' }, max: 100, labels: { format: '{value}%' } },
    legend: { enabled: false },
    tooltip: {
      formatter: function (this: Point) {
        return comparativeTooltip(this.options.custom as ComparativePointData, this.y ?? 0);
      },
    },
    plotOptions: { column: { pointWidth: BAR_WIDTH, animation: false } },
    series: [series],
  };
}

/** 'YYYY-MM-DD' as the UTC midnight Highcharts' datetime axis reads (its default time zone is UTC). */
const dayTime = (day: string): number => Date.parse(`${day}T00:00:00Z`);

/** Price overlay: each stock's close as a change in percent from its first close, one line per ticker. */
export function priceOverlayOptions(comparison: PriceComparison): Options {
  const series: SeriesLineOptions[] = comparison.series.map((s) => ({
    type: 'line',
    name: s.ticker,
    data: s.points.map((p) => [dayTime(p.day), p.changePercent]),
  }));
  return {
    chart: { ...STATIC_CHART, type: 'line' },
    title: { text: 'Price change from the first close' },
    xAxis: { type: 'datetime' },
    yAxis: { title: { text: 'Change (%)' }, labels: { format: '{value}%' } },
    tooltip: {
      shared: true,
      formatter: function (this: Point) {
        return priceTooltip(this.x, this.points ?? [this]);
      },
    },
    plotOptions: { series: { animation: false, marker: { enabled: true, radius: 3 } } },
    series,
  };
}

/** The day and each line's change on it. */
export function priceTooltip(time: number, points: readonly Pick<Point, 'y' | 'series'>[]): string {
  return [
    `<b>${formatDate(new Date(time))}</b>`,
    ...points.map((p) => `${escapeHtml(p.series.name)}: ${formatChangePercent(p.y)}`),
  ].join('<br/>');
}
