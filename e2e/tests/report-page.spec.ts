import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { appHeader, expect, test } from '../fixtures';
import { generateReport, priorDayTrades } from './report-helpers';

// The public report page (spec section 2), opened by an anonymous visitor. The reports are generated as the
// admin over the latest published trading day (T+3), the one day whose trades the stack loads
// (priorDayTrades). The peers are demo stocks with market data (RIO and FMG are no stocks of the portal:
// 'Unknown peer').
const TICKER = 'BHP:ASX';

const PEERS = 'WES CSL';

/** 'YYYY-MM-DD' moved by whole calendar days. */
function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** A chart of the page, by the start of its title (Highcharts' accessibility module names its region). */
const chart = (page: Page, title: string): Locator =>
  page.getByRole('region', { name: new RegExp(`^${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`) });

/** Opens a report as a visitor and waits until it shows (its activity summary). */
async function openReport(page: Page, guid: string): Promise<void> {
  await page.goto(`/report/${guid}`);
  await expect(page.getByRole('heading', { level: 3, name: 'Activity summary' })).toBeVisible();
}

/**
 * The bars Highcharts drew for a chart's first series: the points of the series' own group (Highcharts 12
 * draws a bar as a path; the legend's symbol is a rect.highcharts-point of the series too, so the group matters).
 */
const firstSeriesBars = (chartRegion: Locator): Locator =>
  chartRegion.locator('g.highcharts-series.highcharts-series-0 .highcharts-point');

let admin: APIRequestContext;
let day: string;
let searchable: string;
let fixed: string;

test.beforeAll(async ({ playwright, sessionStates }, testInfo) => {
  // Loading the prior day's trades of every market-data stock takes a while on first call.
  testInfo.setTimeout(240_000);
  admin = await playwright.request.newContext({
    baseURL: testInfo.project.use.baseURL,
    storageState: await sessionStates('admin'),
  });
  day = await priorDayTrades(admin);
  const options = {
    ticker: TICKER,
    startDate: day,
    endDate: day,
    peers: PEERS,
    comparativeTradingActivity: true,
    priceOverlay: true,
  };
  searchable = await generateReport(admin, { ...options, allowSearch: true });
  fixed = await generateReport(admin, options);
});

test.afterAll(async () => {
  await admin.dispose();
});

test('an anonymous visitor sees the report and its charts, without the header', async ({ page }) => {
  await openReport(page, searchable);
  await expect(page.getByRole('heading', { level: 2, name: new RegExp(`\\(${TICKER}\\)$`) })).toBeVisible();
  await expect(appHeader(page)).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 3 })).toHaveText([
    'Activity summary',
    'Report period',
    `Broker activity: ${TICKER}`,
    'Comparative trading activity',
    'Trade analysis',
    'Price comparison',
    'Broker activity (Peers)',
  ]);

  // The ticker's broker chart, the comparative chart, the price overlay and one broker chart per peer.
  await expect(page.locator('svg.highcharts-root')).toHaveCount(5);
  const brokers = chart(page, `Top 20 brokers of ${TICKER}`);
  await expect(firstSeriesBars(brokers)).toHaveCount(20);
  // Spec section 9: bars 15 px wide. Highcharts draws a bar chart as a column chart turned a quarter, so a
  // bar's thickness is its path's own width (the screen box of a path with rounded corners is looser).
  const thickness = await firstSeriesBars(brokers)
    .first()
    .evaluate((bar) => (bar as SVGGraphicsElement).getBBox().width);
  expect(Math.abs(thickness - 15)).toBeLessThanOrEqual(1);
  await expect(
    page.getByRole('table', { name: `Broker share analysis of ${TICKER}` }).locator('tbody tr'),
  ).toHaveCount(20);

  const comparative = chart(page, 'Share of value traded');
  await expect(firstSeriesBars(comparative)).toHaveCount(3);
  await expect(page.getByTestId('target-value')).toHaveText(
    new RegExp(`^Value traded, ${TICKER}: \\$[\\d,]+\\.\\d{2}$`),
  );
  await expect(page.getByTestId('peer-value')).toHaveText(/^Value traded, peers: \$[\d,]+\.\d{2}$/);
  // The tooltip names the item's ticker and its value in dollars.
  await firstSeriesBars(comparative).first().hover();
  await expect(comparative.locator('.highcharts-tooltip')).toContainText(TICKER);
  await expect(comparative.locator('.highcharts-tooltip')).toContainText(/Value traded: \$[\d,]+\.\d{2}/);
  await expect(chart(page, 'Price change from the first close')).toBeVisible();
});

test('generating over other dates shows the new report at /report/{new guid} without a reload', async ({
  page,
}) => {
  await openReport(page, searchable);
  const form = page.getByRole('form', { name: 'Report dates' });
  await expect(form.getByLabel('Start date')).toHaveValue(day);
  await page.evaluate(() => {
    (window as unknown as { marker?: number }).marker = 1;
  });
  // Held until the busy state has been seen, however quick the server is.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/report/generateReport', async (route) => {
    await held;
    await route.continue();
  });

  const start = addDays(day, -14);
  await form.getByLabel('Start date').fill(start);
  await form.getByLabel('End date').fill(day);
  await form.getByRole('button', { name: 'Generate' }).click();
  await expect(form.getByRole('button', { name: 'Generating...' })).toBeDisabled();
  await expect(form.getByRole('status')).toContainText('Generating the report...');
  release();

  await expect.poll(() => new URL(page.url()).pathname).not.toBe(`/report/${searchable}`);
  const newGuid = /^\/report\/([0-9a-f]{32})$/.exec(new URL(page.url()).pathname)?.[1];
  expect(newGuid).toBeDefined();
  await expect(form.getByLabel('Start date')).toHaveValue(start);
  await expect(form.getByRole('button', { name: 'Generate' })).toBeEnabled();
  expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
  await expect(chart(page, `Top 20 brokers of ${TICKER}`)).toBeVisible();

  // The address names a stored report over the new dates; the page shows its period as stored (days whose
  // trades the stack never loaded count as missing).
  const stored = await page.request.get(`/api/report/${newGuid}`);
  expect(stored.status()).toBe(200);
  const view = (await stored.json()) as {
    guid: string;
    startDate: string;
    endDate: string;
    reportPeriod: { tradingDays: number; daysWithData: number };
  };
  expect(view).toMatchObject({ guid: newGuid, startDate: start, endDate: day });
  await expect(page.getByTestId('report-period')).toContainText(
    `${view.reportPeriod.tradingDays} trading days, ${view.reportPeriod.daysWithData} with market data`,
  );
});

test('a refused range shows its errorMessage in an error box and keeps the report', async ({ page }) => {
  await openReport(page, searchable);
  const form = page.getByRole('form', { name: 'Report dates' });
  await form.getByLabel('Start date').fill(day);
  await form.getByLabel('End date').fill(addDays(day, -3));
  await form.getByRole('button', { name: 'Generate' }).click();
  await expect(page.getByRole('alert')).toContainText(
    `The end date ${addDays(day, -3)} is before the start date ${day}`,
  );
  expect(new URL(page.url()).pathname).toBe(`/report/${searchable}`);
});

test('a report without allowSearch has no date-range form', async ({ page }) => {
  await openReport(page, fixed);
  await expect(page.getByRole('form', { name: 'Report dates' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Generat/ })).toHaveCount(0);
});

test("the staff member's 'Allow search' in the Reports tab decides: off by default, no date-range form; ticked, the form", async ({
  page,
  signIn,
}) => {
  await signIn('admin');
  await page.goto(`/stocks/${TICKER}/reports`);
  await page.getByLabel('Start Date', { exact: true }).fill(day);
  await page.getByLabel('End Date', { exact: true }).fill(day);
  const allowSearch = page.getByRole('switch', { name: 'Allow search' });
  const generated = async () => {
    const popup = page.waitForEvent('popup');
    await page.getByRole('button', { name: 'Generate' }).click();
    const report = await popup;
    await report.waitForURL(/\/report\/[0-9a-f]{32}$/);
    await expect(report.getByRole('heading', { level: 3, name: 'Activity summary' })).toBeVisible();
    return report;
  };

  await expect(allowSearch).not.toBeChecked();
  const unticked = await generated();
  await expect(unticked.getByRole('form', { name: 'Report dates' })).toHaveCount(0);
  await unticked.close();

  await allowSearch.check({ force: true });
  const ticked = await generated();
  await expect(ticked.getByRole('form', { name: 'Report dates' })).toBeVisible();
  await ticked.close();
});

test("an unknown report says 'Report not found'", async ({ page }) => {
  await page.goto('/report/00000000000000000000000000000000');
  await expect(page.getByRole('alert')).toContainText('Report not found');
});

test('at phone width the report fits the screen: tables and charts stay inside it', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openReport(page, searchable);
  await expect(page.locator('svg.highcharts-root')).toHaveCount(5);
  await expect(firstSeriesBars(chart(page, `Top 20 brokers of ${TICKER}`))).toHaveCount(20);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  // A wide table scrolls inside its own box.
  const table = page.getByRole('table', { name: `Broker share analysis of ${TICKER}` });
  const box = await table.evaluate((element) => {
    // The nearest box around the table that scrolls sideways.
    let scroller = element.parentElement!;
    while (!['auto', 'scroll'].includes(getComputedStyle(scroller).overflowX))
      scroller = scroller.parentElement!;
    return { scrollWidth: scroller.scrollWidth, clientWidth: scroller.clientWidth };
  });
  expect(box.scrollWidth).toBeGreaterThan(box.clientWidth);
  expect(box.clientWidth).toBeLessThanOrEqual(390);
});

test('printed, the report has no form and keeps each section and chart whole', async ({ page }) => {
  await openReport(page, searchable);
  await expect(page.getByRole('form', { name: 'Report dates' })).toBeVisible();
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByRole('form', { name: 'Report dates' })).toBeHidden();
  const section = page.getByTestId('report-broker-activity');
  expect(await section.evaluate((element) => getComputedStyle(element).breakInside)).toBe('avoid');
  // Print scales a chart to the paper: its viewBox keeps the drawing whole and in proportion.
  const svg = chart(page, `Top 20 brokers of ${TICKER}`).locator('svg.highcharts-root');
  await expect(svg).toBeVisible();
  const shape = await svg.evaluate((element) => {
    const box = element.getBoundingClientRect();
    return {
      viewBox: element.getAttribute('viewBox'),
      drawn: box.width / box.height,
      own: Number(element.getAttribute('width')) / Number(element.getAttribute('height')),
    };
  });
  expect(shape.viewBox).toMatch(/^0 0 \d+ \d+$/);
  expect(shape.drawn).toBeCloseTo(shape.own, 2);
});
