import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { serveApi } from '@/test/fakeApi';
import { jsonResponse, renderRoute, storeWith } from '@/test/render';
import { REPORT_GUID, REPORT_PATH, reportView } from '../test/fixtures';

vi.mock('@/api/pageReload', () => ({ reloadPage: vi.fn() }));

/** The report page's charts as Highcharts draws them in jsdom (ReportRoute.test.tsx stands them in). */
describe('Report page charts', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
    window.history.replaceState(null, '', `/report/${REPORT_GUID}`);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
    window.history.replaceState(null, '', '/');
  });

  // Five Highcharts drawings in jsdom: seconds each on a busy machine.
  it(
    'draws every chart: regions named by their titles, 20 bars, a viewBox for print',
    { timeout: 90_000 },
    async () => {
      serveApi(fetchMock, { [`GET ${REPORT_PATH}`]: () => jsonResponse(reportView()) });
      renderRoute(`/report/${REPORT_GUID}`, { store: storeWith() });
      await screen.findByRole('heading', { level: 2, name: 'BHP Group Limited (BHP:ASX)' });
      // Highcharts draws in jsdom too: each chart is a region named by its title (its accessibility module).
      const charts = screen.getAllByRole('region', { name: /Highcharts interactive chart/ });
      expect(charts.map((c) => c.getAttribute('aria-label')?.replace(/\. Highcharts.*$/, ''))).toEqual([
        'Top 20 brokers of BHP:ASX by value traded',
        'Share of value traded',
        'Price change from the first close',
        'Top 20 brokers of RIO:ASX by value traded',
        'Top 20 brokers of FMG:ASX by value traded',
      ]);
      // jsdom lays nothing out, so the bars are counted as the series' description reads them.
      const seriesLabel = (chart: HTMLElement) =>
        chart.querySelector('.highcharts-series-0')?.getAttribute('aria-label');
      expect(seriesLabel(charts[0]!)).toMatch(/^Bought, bar series 1 of 2 with 20 bars/);
      // Each drawing has a viewBox, so print can scale it to the paper without cutting it.
      for (const svg of document.querySelectorAll('svg.highcharts-root')) {
        expect(svg.getAttribute('viewBox')).toBe(
          `0 0 ${svg.getAttribute('width')} ${svg.getAttribute('height')}`,
        );
      }
    },
  );
});
