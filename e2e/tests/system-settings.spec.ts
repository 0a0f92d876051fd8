import fs from 'node:fs';
import path from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, SAVED_TEXT_MS, test } from '../fixtures';
import { inboxMail } from './mail-inbox';
import { priorDayTrades } from './report-helpers';
import { csrfHeader } from './stock-helpers';

/** The ASX stand-in's control API (standins/src/asx), started by the stack. */
const STANDIN_URL = process.env.E2E_STANDIN_URL ?? `http://127.0.0.1:${process.env.ASX_STANDIN_PORT ?? 3251}`;

/**
 * The announcements process's /metrics in the stack under test: its manifest health port, moved by the same
 * offset as the ASX stand-in's port (scripts/test.mjs moves every port of the browser stack by one offset).
 */
function announcementsMetricsUrl(): string {
  interface Entry {
    name: string;
    healthPort: number;
    standIns?: Array<{ name: string; port: number }>;
  }
  const manifest = JSON.parse(
    fs.readFileSync(path.join(__dirname, '..', '..', 'services', 'manifest.json'), 'utf8'),
  ) as { services: Entry[] };
  const service = manifest.services.find((s) => s.name === 'announcements')!;
  const standIn = service.standIns!.find((s) => s.name === 'asx-standin')!;
  const offset = Number(new URL(STANDIN_URL).port) - standIn.port;
  return `http://127.0.0.1:${service.healthPort + offset}/metrics`;
}

/** A counter of the announcements process, summed over its series that carry `labels`. */
async function announcementsCounter(
  request: APIRequestContext,
  name: string,
  labels: Record<string, string> = {},
): Promise<number> {
  const response = await request.get(announcementsMetricsUrl());
  expect(response.status(), 'the announcements /metrics').toBe(200);
  let sum = 0;
  for (const line of (await response.text()).split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const labelText = /\{(.*)\}/.exec(line)?.[1] ?? '';
    if (Object.entries(labels).every(([k, v]) => labelText.includes(`${k}="${v}"`)))
      sum += Number(line.split(' ').pop());
  }
  return sum;
}

/**
 * All poll work published until now (the scheduler's requests, a market read's fan-out) has been handled
 * (polled, or skipped because polling is off): after polling is switched off, no poll that started before
 * is still reading a feed.
 */
async function untilPollsHandled(request: APIRequestContext): Promise<void> {
  const published = await announcementsCounter(request, 'irp_announcements_poll_requests_published_total');
  await expect
    .poll(
      async () =>
        (await announcementsCounter(request, 'irp_kafka_handled_messages_total', {
          topic: 'announcements.poll-requested',
        })) +
        (await announcementsCounter(request, 'irp_kafka_handled_messages_total', {
          topic: 'announcements.market-items-listed',
        })),
      { message: `the ${published} poll requests published so far handled` },
    )
    .toBeGreaterThanOrEqual(published);
}

interface Settings {
  announcementService: string;
  errorEmail: string;
  hourlyAutoSendLimit: number;
  dailyAutoSendLimit: number;
  disablePollUntil: string | null;
  useNightmare: boolean;
}

async function readSettings(request: APIRequestContext): Promise<Settings> {
  const response = await request.get('/api/admin/systemSettings');
  expect(response.status()).toBe(200);
  return (await response.json()) as Settings;
}

/** Puts the settings back as they were (the suite shares one database). */
async function writeSettings(page: Page, settings: Settings): Promise<void> {
  const response = await page.request.post('/api/admin/systemSettings', {
    headers: await csrfHeader(page),
    data: settings,
  });
  expect(response.status(), await response.text()).toBe(200);
}

/** '22 Mar 2025 8:50 AM' in Sydney time, as the settings form takes it. */
function sydneyText(date: Date): string {
  const parts = new Intl.DateTimeFormat('en-AU', {
    timeZone: 'Australia/Sydney',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    hour12: true,
  }).formatToParts(date);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('day')} ${get('month').slice(0, 3)} ${get('year')} ${get('hour')}:${get('minute')} ${get('dayPeriod').toUpperCase()}`;
}

const section = (page: Page, name: string) => page.getByRole('region', { name });

test.describe('system settings', () => {
  let original: Settings;

  test.beforeEach(async ({ page, signIn }) => {
    await signIn('admin');
    await page.clock.install();
    await page.goto('/system-settings');
    await expect(page.getByRole('heading', { name: 'System Settings' })).toBeVisible();
    original = await readSettings(page.request);
  });

  test.afterEach(async ({ page }) => {
    await writeSettings(page, original);
  });

  test("saves the settings: 'Saved!' and kept over a reload", async ({ page }) => {
    const settings = section(page, 'Settings');
    const hourly = settings.getByLabel('Hourly auto-send limit');
    await expect(hourly).toHaveValue(String(original.hourlyAutoSendLimit));
    await expect(settings.getByLabel('Announcement service')).toHaveValue(original.announcementService);
    await expect(settings.getByLabel('Announcement service').locator('option')).toHaveText([
      'ASX',
      'ASX (second feed)',
      'Westpac (ASX-shaped proxy)',
      'IRESS (ASX-shaped proxy)',
      'Mock (demo data)',
    ]);

    const save = settings.getByRole('button', { name: /^(Save|Saving\.\.\.|Saved!)$/ });
    await save.click();
    await expect(page.getByText('Nothing to Save')).toBeVisible();

    const next = original.hourlyAutoSendLimit + 1;
    await hourly.fill(String(next));
    await settings.getByLabel('Error email').fill('ops-errors@example.com');
    await settings.getByLabel('Disable poll until').fill('1 Jan 2020 9:00 AM');
    await save.click();
    await expect(save).toHaveText('Saved!');
    // Back to Save after 3 seconds: the page's clock (installed before it loaded) moves on instead of the test
    // waiting for it.
    await page.clock.fastForward(SAVED_TEXT_MS);
    await expect(save).toHaveText('Save');

    await page.reload();
    await expect(hourly).toHaveValue(String(next));
    await expect(settings.getByLabel('Error email')).toHaveValue('ops-errors@example.com');
    await expect(settings.getByLabel('Disable poll until')).toHaveValue('1 Jan 2020 9:00 AM');
  });

  test('refuses westpac without its base URL, naming WESTPAC_BASE_URL', async ({ page }) => {
    const settings = section(page, 'Settings');
    await settings.getByLabel('Announcement service').selectOption('westpac');
    await settings.getByRole('button', { name: 'Save' }).click();
    const dialog = page.getByRole('dialog', { name: 'Save failed' });
    await expect(dialog).toContainText('WESTPAC_BASE_URL');
    await dialog.getByRole('button', { name: 'OK' }).click();
    await page.reload();
    await expect(section(page, 'Settings').getByLabel('Announcement service')).toHaveValue(
      original.announcementService,
    );
  });

  test('file cleanup shows its three tables', async ({ page }) => {
    const tool = section(page, 'File cleanup');
    await tool.getByRole('button', { name: 'Run File Cleanup' }).click();
    // The tool reads every stored PDF: on a data directory that many runs have filled, that takes a while.
    await expect(tool.getByRole('table', { name: 'Missing on disk' }).getByRole('columnheader')).toHaveText([
      'Ticker',
      'Date',
      'Headline',
      'Local path',
    ]);
    await expect(tool.getByRole('table', { name: 'Duplicates' }).getByRole('columnheader')).toHaveText([
      'SHA-256',
      'Size',
      'Files',
    ]);
    await expect(
      tool.getByRole('table', { name: 'On disk but not in database' }).getByRole('columnheader'),
    ).toHaveText(['Directory', 'Filename', 'Size']);
  });

  test('disk report shows its table, with billable stocks when asked', async ({ page }) => {
    const tool = section(page, 'Disk report');
    await tool.getByRole('switch', { name: 'Include billable' }).check({ force: true });
    await tool.getByRole('button', { name: 'Run Disk Report' }).click();
    const table = tool.getByRole('table', { name: 'Disk report' });
    await expect(table.getByRole('columnheader')).toHaveText([
      'Ticker',
      'Disk space',
      'Website',
      'API key',
      'Last used in report',
    ]);
    // The demo stocks hold PDFs.
    const bhp = table.getByRole('row').filter({ hasText: 'BHP' }).first();
    await expect(bhp).toBeVisible();
    await expect(bhp.getByRole('cell').nth(1)).toHaveText(/^\d+\.\d MB$/);

    await tool.getByRole('switch', { name: 'Include billable' }).uncheck({ force: true });
    const request = page.waitForRequest((r) => r.url().includes('/api/admin/diskReport'));
    await tool.getByRole('button', { name: 'Run Disk Report' }).click();
    expect(new URL((await request).url()).searchParams.get('includeBillable')).toBe('false');
    await expect(table).toBeVisible();
  });

  test('reconcile finds what the poller missed; apply stores it (never sends it)', async ({ page }) => {
    test.setTimeout(120_000);
    // Hold polling back so only the reconcile can find the new announcement; a poll that passed its check
    // just before the save may still be reading the feed, so the announcement is published once every poll
    // requested so far has been handled.
    await writeSettings(page, {
      ...original,
      disablePollUntil: sydneyText(new Date(Date.now() + 86_400_000)),
    });
    await untilPollsHandled(page.request);
    const headline = `Reconcile check ${Date.now().toString(36)}`;
    const published = await page.request.post(`${STANDIN_URL}/standin/announcements`, {
      data: {
        ticker: 'CSL',
        headline,
        priceSensitive: false,
        releasedAt: new Date(Date.now() - 3_600_000).toISOString(),
      },
    });
    expect(published.status(), 'the ASX stand-in control API (E2E_STANDIN_URL)').toBe(201);

    await page.reload();
    const tool = section(page, 'Reconcile');
    await tool.getByLabel('Number of days').fill('2');
    const asked: string[] = [];
    page.on('dialog', (dialog) => {
      asked.push(dialog.message());
      void dialog.accept();
    });
    await tool.getByRole('button', { name: 'Run Reconcile' }).click();
    expect(asked[0]).toMatch(/^Run a reconcile of the last 2 days\?/);
    await expect(tool.getByTestId('reconcile-status')).toContainText(/Checked \d+ of \d+ stocks/);
    await expect(tool.getByTestId('reconcile-status')).toContainText(
      /^Completed: Checked (\d+) of \1 stocks/,
    );
    const results = tool.getByRole('table', { name: 'Reconcile results' });
    await expect(results.getByRole('columnheader')).toHaveText([
      'Ticker',
      'Date',
      'Headline',
      'Price sensitive',
    ]);
    await expect(results.getByRole('row').filter({ hasText: headline })).toContainText('CSL');

    await tool.getByRole('button', { name: 'Apply' }).click();
    expect(asked.at(-1)).toMatch(/stores them, never sends them\.$/);
    await expect(tool.getByTestId('reconcile-status')).toContainText(/^Applied: \d+ announcements? stored/);

    // The last run shows on load.
    await page.reload();
    await expect(section(page, 'Reconcile').getByTestId('reconcile-status')).toContainText(/^Applied:/);

    // Stored on the stock, not sent.
    await page.goto('/stocks/CSL:ASX/announcements');
    const row = page.getByTestId('announcement-row').filter({ hasText: headline });
    await expect(row).toHaveCount(1);
    await expect(row.getByRole('img', { name: /^(Sent|Send requested)/ })).toHaveCount(0);
  });

  test('market data: Sync Watchlist and Run Prior Day ask first, run, and show their result', async ({
    page,
  }) => {
    const asked: string[] = [];
    page.on('dialog', (dialog) => {
      asked.push(dialog.message());
      void dialog.accept();
    });
    const tools = section(page, 'Market data');
    const sync = tools.getByRole('group', { name: 'Sync Watchlist' });
    await sync.getByRole('button', { name: 'Sync Watchlist' }).click();
    // A loaded machine makes the provider's calls slow; the result is what counts.
    await expect(sync.getByRole('status')).toHaveText(/^Quotes updated: [1-9]\d* of \d+ stocks?/, {
      timeout: 60_000,
    });
    const stock = await page.request.get('/api/stock/BHP:ASX');
    expect(stock.status()).toBe(200);
    expect(((await stock.json()) as { currentMarketData: unknown }).currentMarketData).not.toBeNull();

    const prior = tools.getByRole('group', { name: 'Run Prior Day' });
    await prior.getByRole('button', { name: 'Run Prior Day' }).click();
    const result = prior.getByRole('status');
    await expect(result).toHaveText(
      /^\d{4}-\d{2}-\d{2}: \d+ of \d+ stocks? loaded \(\d+ trades\), \d+ already loaded$/,
      {
        timeout: 60_000,
      },
    );
    // The day shown is the one the route loads: a re-run through the API names it and loads nothing new.
    const day = await priorDayTrades(page);
    await expect(result).toContainText(`${day}: `);
    expect(asked).toEqual([
      "Sync the watchlist now? The current quote of every stock with market data enabled is read from the market-data provider, replacing quotes entered on a stock's Market tab too.",
      'Run the prior day now? The latest trading day the provider has published (broker-level trades are published three trading days later) is loaded for every stock with market data enabled; stocks already loaded for that day are skipped.',
    ]);
  });

  test('test email asks first, then the mail arrives in the inbox', async ({ page }) => {
    const tool = section(page, 'Test email');
    const address = `ops-${Date.now().toString(36)}@example.com`;
    await tool.getByLabel('Email address').fill(address);
    let asked = '';
    page.once('dialog', (dialog) => {
      asked = dialog.message();
      void dialog.accept();
    });
    await tool.getByRole('button', { name: 'Send Test Email' }).click();
    await expect(tool.getByRole('status')).toHaveText('Sent!');
    expect(asked).toBe(`Send a test email to ${address}?`);
    const mail = await inboxMail(page, address);
    expect(mail.subject).toBe('IR Portal test email');
  });
});

test('system settings are for admins only', async ({ page, signIn }) => {
  await signIn('client');
  await page.goto('/system-settings');
  await expect(page.getByText('You are not allowed to view this page.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Run File Cleanup' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Sync Watchlist' })).toHaveCount(0);
});

test.describe('at phone width', () => {
  test.use({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true });

  test('the settings and the tools fit; results are lists', async ({ page, signIn }, testInfo) => {
    await signIn('admin');
    await page.goto('/system-settings');
    await expect(page.getByLabel('Announcement service')).toBeVisible();
    const tool = section(page, 'Disk report');
    await tool.getByRole('switch', { name: 'Include billable' }).check({ force: true });
    await tool.getByRole('button', { name: 'Run Disk Report' }).click();
    await expect(tool.getByRole('list', { name: 'Disk report' })).toBeVisible();
    await expect(tool.getByRole('table')).toHaveCount(0);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: testInfo.outputPath('system-settings-phone.png'), fullPage: true });
  });
});
