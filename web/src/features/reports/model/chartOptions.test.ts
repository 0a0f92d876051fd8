import type {
  Point,
  SeriesBarOptions,
  SeriesColumnOptions,
  SeriesLineOptions,
  TooltipFormatterCallbackFunction,
  Tooltip,
} from 'highcharts';
import { describe, expect, it } from 'vitest';
import { reportView } from '../test/fixtures';
import {
  BAR_WIDTH,
  brokerChartOptions,
  comparativeChartOptions,
  priceOverlayOptions,
  TOP_BROKERS,
} from './chartOptions';

const report = reportView();
const bhp = report.brokerActivityViewModels[0]!.brokerShareAnalysis;

/** Calls a tooltip formatter as Highcharts does: `this` is the hovered point. */
function tooltipOf(formatter: TooltipFormatterCallbackFunction | undefined, point: Partial<Point>) {
  if (!formatter) throw new Error('no tooltip formatter');
  return formatter.call(point as Point, {} as Tooltip);
}

describe('brokerChartOptions', () => {
  const options = brokerChartOptions(bhp);
  const [buys, sells] = options.series as SeriesBarOptions[];

  it('draws the top 20 brokers, one row each, bought to the right and sold to the left', () => {
    expect(TOP_BROKERS).toBe(20);
    expect(buys?.data).toHaveLength(20);
    expect(sells?.data).toHaveLength(20);
    expect((options.xAxis as { categories: string[] }).categories).toEqual(bhp.brokers.map((b) => b.name));
    expect(buys?.data?.[0]).toMatchObject({ y: bhp.brokers[0]!.buyValue });
    expect(sells?.data?.[0]).toMatchObject({ y: -bhp.brokers[0]!.sellValue });
  });

  it('makes its bars 15 px wide, stacked in one row per broker', () => {
    expect(BAR_WIDTH).toBe(15);
    expect(options.plotOptions?.bar).toMatchObject({ pointWidth: 15, stacking: 'normal' });
    expect(options.chart?.type).toBe('bar');
  });

  it('never shows more than 20 brokers', () => {
    const many = {
      ...bhp,
      brokers: [...bhp.brokers, ...bhp.brokers.map((b) => ({ ...b, name: `${b.name} 2` }))],
    };
    expect((brokerChartOptions(many).series as SeriesBarOptions[])[0]?.data).toHaveLength(20);
  });

  it('tooltips name the broker and its buys, sells and net in dollars (names escaped: Highcharts reads HTML)', () => {
    const point = { options: buys!.data![7] as Point['options'] };
    expect(tooltipOf(options.tooltip?.formatter, point)).toBe(
      '<b>Wattle &#38; Co</b><br/>Bought: $12,924,687.50<br/>Sold: $17,473,207.50<br/>Net: -$4,548,520.00',
    );
  });
});

describe('comparativeChartOptions', () => {
  const activity = report.comparativeTradingActivity!;
  const options = comparativeChartOptions(activity);
  const [series] = options.series as SeriesColumnOptions[];

  it("draws each stock's percent of the value traded as a 15 px bar", () => {
    expect(series?.data?.map((d) => (d as { y: number }).y)).toEqual([52.31, 35.12, 12.57]);
    expect((options.xAxis as { categories: string[] }).categories).toEqual([
      'BHP Group Limited',
      'Rio Tinto Limited',
      'Fortescue Ltd',
    ]);
    expect(options.plotOptions?.column?.pointWidth).toBe(15);
  });

  it("tooltips show the item's ticker and the value it traded in dollars", () => {
    const point = { y: 35.12, options: series!.data![1] as Point['options'] };
    expect(tooltipOf(options.tooltip?.formatter, point)).toBe(
      '<b>RIO:ASX</b><br/>Value traded: $1,158,904,120.10<br/>Share of value traded: 35.12%',
    );
  });
});

describe('priceOverlayOptions', () => {
  const options = priceOverlayOptions(report.priceComparison);
  const series = options.series as SeriesLineOptions[];

  it("draws one line per ticker of each day's change in percent", () => {
    expect(series.map((s) => s.name)).toEqual(['BHP:ASX', 'RIO:ASX', 'FMG:ASX']);
    // BHP's missing day (5 March) has no point rather than a 0.
    expect(series[0]?.data).toHaveLength(4);
    expect(series[0]?.data?.[0]).toEqual([Date.UTC(2025, 2, 3), 0]);
    expect(series[1]?.data?.[4]).toEqual([Date.UTC(2025, 2, 7), 1.57]);
  });

  it('tooltips list each line on the day with its signed change', () => {
    const points = [
      { y: 2.9, series: { name: 'BHP:ASX' } },
      { y: -1.3, series: { name: 'FMG:ASX' } },
    ] as Point[];
    expect(tooltipOf(options.tooltip?.formatter, { x: Date.UTC(2025, 2, 6), points })).toBe(
      '<b>6 Mar 2025</b><br/>BHP:ASX: +2.90%<br/>FMG:ASX: -1.30%',
    );
  });
});
