import type { APIResponse, Locator, Page } from '@playwright/test';
import { expect, test } from '../fixtures';
import { createStock, pdfFile, uniqueTicker } from './stock-helpers';

// Demo data: BHP, CBA, CSL and PLS are polled ASX stocks whose announcements (with PDFs) come from the ASX
// stand-in; VOD:LSE is not on the ASX. Demo users (services/users/src/demo-users.ts): `client` holds
// EditAnnouncements (no SendMailchimp) on BHP, and `announcer` EditAnnouncements and EditMailchimp (no
// SendMailchimp, no ViewConfig) on BHP; an admin holds every role on the client page too.

/** The ASX stand-in's control API (standins/src/asx), started by the stack. */
const STANDIN_URL = process.env.E2E_STANDIN_URL ?? `http://127.0.0.1:${process.env.ASX_STANDIN_PORT ?? 3251}`;

const SYDNEY_DATE = /^\d{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{1,2}:\d{2} [AP]M$/;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** '22 Mar 2025 8:50 AM' as a number that orders like the time (all in one zone, so comparable). */
function sortKey(text: string): number {
  const m = /^(\d{1,2}) (\w{3}) (\d{4}) (\d{1,2}):(\d{2}) ([AP]M)$/.exec(text.trim());
  if (!m) throw new Error(`not a Sydney date: ${text}`);
  const [, day, month, year, hour, minute, half] = m;
  const h = (Number(hour) % 12) + (half === 'PM' ? 12 : 0);
  return Date.UTC(Number(year), MONTHS.indexOf(month ?? ''), Number(day), h, Number(minute));
}

/** Accepts every confirm() and keeps what each asked. */
function acceptDialogs(page: Page): string[] {
  const asked: string[] = [];
  page.on('dialog', (dialog) => {
    asked.push(dialog.message());
    void dialog.accept();
  });
  return asked;
}

const announcementsTable = (page: Page) => page.getByRole('table', { name: 'Announcements' });
const rowOf = (page: Page, headline: string) =>
  page.getByTestId('announcement-row').filter({ hasText: headline });
/** The newest announcement not deleted (demo headlines repeat across years, so by row, not by name). */
const liveRow = (page: Page) =>
  page.getByTestId('announcement-row').and(page.locator(':not([data-deleted])')).first();

/** The row menu's items of `row` (a row locator, or the headline of a row with a unique headline). */
async function menuItems(page: Page, row: Locator | string): Promise<string[]> {
  const target = typeof row === 'string' ? rowOf(page, row) : row;
  await target.getByRole('button', { name: /^Actions for / }).click();
  const items = page.getByRole('menuitem');
  await expect(items.first()).toBeVisible();
  const names = await items.allTextContents();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menuitem')).toHaveCount(0);
  return names;
}

async function chooseMenuItem(page: Page, headline: string, item: string): Promise<void> {
  await rowOf(page, headline)
    .getByRole('button', { name: /^Actions for / })
    .click();
  await page.getByRole('menuitem', { name: item, exact: true }).click();
}

async function addAnnouncement(
  page: Page,
  fields: { headline: string; date: string; priceSensitive?: boolean },
): Promise<void> {
  await page.getByRole('button', { name: 'Add Announcement' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Announcement' });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Headline').fill(fields.headline);
  await dialog.getByLabel('Date').fill(fields.date);
  if (fields.priceSensitive) await dialog.getByLabel('Price sensitive').check();
  await dialog.getByLabel('PDF').setInputFiles(await pdfFile(fields.headline));
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
}

/** The icons' accessible names in a row. */
const iconNames = (row: Locator) =>
  row.getByRole('img').evaluateAll((icons) => icons.map((icon) => icon.getAttribute('aria-label') ?? ''));

test.describe('staff Announcements tab', () => {
  test.beforeEach(async ({ signIn }) => {
    await signIn('admin');
  });

  test('lists the demo announcements newest first, in Sydney time, with their PDFs', async ({ page }) => {
    await page.goto('/stocks/BHP:ASX/announcements');
    const table = announcementsTable(page);
    await expect(table).toBeVisible();
    await expect(table.getByRole('columnheader')).toHaveText([
      'Date',
      'Headline',
      'Views',
      'Comments',
      'Alert',
      'Actions',
    ]);
    await expect(page.getByRole('button', { name: 'Add Announcement' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Resync' })).toBeVisible();
    // Announcements saves in its own form; the page's Save shows here too (spec section 2: every tab but
    // Notes and Reports) and saves the stock's fields: nothing changed, so nothing to save.
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByText('Nothing to Save', { exact: true })).toBeVisible();

    const dates = await page.getByTestId('announcement-row').locator('td:first-child').allTextContents();
    expect(dates.length).toBeGreaterThan(0);
    for (const date of dates) expect(date).toMatch(SYDNEY_DATE);
    const keys = dates.map(sortKey);
    expect(keys).toEqual([...keys].sort((a, b) => b - a));

    // The headline links to the PDF (the Comments count, when there are comments, links to them).
    const link = page.getByTestId('announcement-row').first().locator('a[href^="/api/Announcement/pdf/"]');
    const href = await link.getAttribute('href');
    expect(href).toMatch(/^\/api\/Announcement\/pdf\/[0-9a-f-]{36}$/);
    await expect(link).toHaveAttribute('target', '_blank');
    const pdf = await page.request.get(href ?? '');
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()['content-type']).toContain('application/pdf');
    expect((await pdf.body()).subarray(0, 4).toString()).toBe('%PDF');
  });

  test('adds with a PDF, edits the headline, sends, resends after a second confirmation, deletes', async ({
    page,
  }) => {
    // A whole announcement's life in one test: well over the default budget on a loaded 2-core machine.
    test.setTimeout(90_000);
    const ticker = uniqueTicker('N');
    await page.goto('/');
    // Polling off (so no initial poll to wait for) and a channel on, so a send is accepted.
    await createStock(page, ticker, {
      sendPriceSensitiveAnnouncements: true,
      sendNonPriceSensitiveAnnouncements: true,
    });
    await page.goto(`/stocks/${ticker}:ASX/announcements`);
    await expect(page.getByText('No announcements yet.')).toBeVisible();

    // A new ASX announcement needs its PDF (spec section 5).
    await page.getByRole('button', { name: 'Add Announcement' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Announcement' });
    await expect(dialog.getByLabel('PDF')).toHaveAttribute('accept', 'application/pdf');
    await dialog.getByLabel('Headline').fill('No file');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog.getByRole('alert')).toHaveText(
      'Save Failed! File upload not defined. Must upload a pdf',
    );
    await dialog.getByLabel('Date').fill('not a date');
    await dialog.getByLabel('PDF').setInputFiles(await pdfFile('No file'));
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog.getByRole('alert')).toHaveText('Save Failed! Unable to parse date not a date');
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    const headline = `Half Year Results ${ticker}`;
    await addAnnouncement(page, { headline, date: '22 Mar 2025 8:50 AM', priceSensitive: true });
    const row = rowOf(page, headline);
    await expect(row).toHaveCount(1);
    await expect(row.locator('td').first()).toHaveText('22 Mar 2025 8:50 AM');
    await expect(row.getByRole('img', { name: 'Price sensitive' })).toBeVisible();
    expect(await iconNames(row)).toEqual(['Price sensitive']);
    const href = await row.getByRole('link', { name: headline }).getAttribute('href');
    const pdf = await page.request.get(href ?? '');
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()['content-type']).toContain('application/pdf');

    // Edit the headline: the original headline shows in an icon's tooltip.
    const edited = `Half Year Results and Dividend ${ticker}`;
    await chooseMenuItem(page, headline, 'Edit');
    const editDialog = page.getByRole('dialog', { name: 'Edit Announcement' });
    await expect(editDialog.getByLabel('Headline')).toHaveValue(headline);
    await expect(editDialog.getByLabel('Date')).toHaveValue('22 Mar 2025 8:50 AM');
    await editDialog.getByLabel('Headline').fill(edited);
    await editDialog.getByRole('button', { name: 'Save' }).click();
    await expect(editDialog).toBeHidden();
    const editedRow = rowOf(page, edited);
    const original = editedRow.getByRole('img', { name: `Original headline: ${headline}` });
    await expect(original).toBeVisible();
    await original.hover();
    await expect(page.getByRole('tooltip')).toHaveText(`Original headline: ${headline}`);

    // Send: one confirmation, then 'Sent!'.
    const asked = acceptDialogs(page);
    expect(await menuItems(page, edited)).toEqual([
      'Edit',
      'Send Email',
      'Send Confirmation Email',
      'Delete',
    ]);
    await chooseMenuItem(page, edited, 'Send Email');
    await expect(page.getByText('Sent!', { exact: true })).toBeVisible();
    expect(asked).toEqual([`Send the announcement '${edited}' to subscribers now?`]);
    await expect(editedRow.getByRole('img', { name: /^(Sent|Send requested)/ })).toBeVisible();

    // Again: it was sent, so a second confirmation, and the send goes with sendOverride=true.
    await expect(page.getByText('Sent!', { exact: true })).toBeHidden();
    const resend = page.waitForRequest(
      (r) => r.url().includes('/api/Announcement/send/') && r.method() === 'POST',
    );
    await chooseMenuItem(page, edited, 'Send Email');
    expect(new URL((await resend).url()).searchParams.get('sendOverride')).toBe('true');
    await expect(page.getByText('Sent!', { exact: true })).toBeVisible();
    expect(asked.slice(1)).toEqual([
      `Send the announcement '${edited}' to subscribers now?`,
      'This announcement has already been sent. Confirm to send it again.',
    ]);

    // Delete: struck through, with its date; no Delete item any more.
    await chooseMenuItem(page, edited, 'Delete');
    await expect(editedRow).toHaveAttribute('data-deleted', 'true');
    expect(asked.at(-1)).toBe(`Delete the announcement '${edited}'?`);
    await expect(
      editedRow.getByRole('img', { name: /^Deleted \d{1,2} \w{3} \d{4} \d{1,2}:\d{2} [AP]M$/ }),
    ).toBeVisible();
    await expect(editedRow.getByText(edited)).toHaveCSS('text-decoration-line', 'line-through');
    expect(await menuItems(page, edited)).toEqual(['Edit']);

    await page.reload();
    await expect(rowOf(page, edited)).toHaveAttribute('data-deleted', 'true');
  });

  test('a non-ASX stock gives a URL instead of a PDF', async ({ page }) => {
    await page.goto('/stocks/VOD:LSE/announcements');
    await page.getByRole('button', { name: 'Add Announcement' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Announcement' });
    await expect(dialog.getByLabel('URL', { exact: true })).toBeVisible();
    await expect(dialog.getByLabel('PDF')).toHaveCount(0);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  test('resync: Sync in Progress with its progress, then the table and buttons again', async ({ page }) => {
    test.setTimeout(120_000);
    await page.goto('/stocks/PLS:ASX/announcements');
    await expect(page.getByRole('button', { name: 'Resync' })).toBeVisible();
    // The stand-in holds PLS's feed answers until released: the walk stays in progress for as long as the
    // test looks at it, however fast or slow the machine is.
    const hold = (on: boolean) =>
      page.request.post(`${STANDIN_URL}/standin/hold`, { data: { ticker: 'PLS', on } });
    expect((await hold(true)).status(), 'the ASX stand-in control API (E2E_STANDIN_URL)').toBe(200);

    try {
      await resyncWhileHeld(page, hold);
    } finally {
      await hold(false);
    }
    await expect(page.getByRole('button', { name: 'Add Announcement' })).toBeVisible();
    await expect(page.getByTestId('sync-progress')).toHaveCount(0);
    await expect(page.getByTestId('sync-in-progress')).toHaveCount(0);
    await expect(announcementsTable(page)).toBeVisible();
  });
});

/** Resync with the feed held: the progress shows (year, count, bar), Add and Save hide; then releases it. */
async function resyncWhileHeld(page: Page, hold: (on: boolean) => Promise<APIResponse>) {
  const asked = acceptDialogs(page);
  await page.getByRole('button', { name: 'Resync' }).click();
  expect(asked[0]).toMatch(/^Resync the announcements of PLS\?/);
  const progress = page.getByTestId('sync-progress');
  await expect(progress).toContainText('Sync in Progress');
  await expect(page.getByTestId('sync-in-progress')).toContainText('Sync in Progress');
  await expect(page.getByRole('button', { name: 'Add Announcement' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Save', exact: true })).toHaveCount(0);
  await expect(progress).toContainText(/Sync in Progress: \d{4} of \d{4}, \d+ announcements?/);
  // The bar is there with its value (a 0% bar at the first year has no width to be 'visible').
  await expect(progress.getByRole('progressbar', { name: 'Sync progress' })).toHaveAttribute(
    'aria-valuenow',
    /^\d+$/,
  );

  expect((await hold(false)).status()).toBe(200);
}

test.describe('client Announcements tab', () => {
  test('announcer (EditAnnouncements, no SendMailchimp): Edit and Delete only, no Resync', async ({
    page,
    signIn,
  }) => {
    await signIn('announcer');
    await page.goto('/client-stocks/BHP:ASX?tab=announcements');
    await expect(page.getByRole('tab', { name: 'Announcements' })).toHaveAttribute('aria-selected', 'true');
    const table = announcementsTable(page);
    await expect(table).toBeVisible();
    await expect(table.getByRole('columnheader')).toHaveText([
      'Date',
      'Headline',
      'Views',
      'Comments',
      'Alert',
      'Actions',
    ]);
    await expect(page.getByRole('button', { name: 'Add Announcement' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Resync' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Save', exact: true })).toHaveCount(0);
    expect(await menuItems(page, liveRow(page))).toEqual(['Edit', 'Delete']);
  });

  test('client (EditAnnouncements, no SendMailchimp): no Send Email either', async ({ page, signIn }) => {
    await signIn('client');
    await page.goto('/client-stocks/BHP:ASX?tab=announcements');
    await expect(announcementsTable(page)).toBeVisible();
    expect(await menuItems(page, liveRow(page))).toEqual(['Edit', 'Delete']);
  });

  test('an admin on the client page holds SendMailchimp: Send Email, but no confirmation email or Resync', async ({
    page,
    signIn,
  }) => {
    await signIn('admin');
    await page.goto('/client-stocks/BHP:ASX?tab=announcements');
    await expect(announcementsTable(page)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Resync' })).toHaveCount(0);
    expect(await menuItems(page, liveRow(page))).toEqual(['Edit', 'Send Email', 'Delete']);
  });
});

test.describe('at phone width', () => {
  test.use({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true });

  test('the Announcements tab lists cards and fits the screen', async ({ page, signIn }, testInfo) => {
    await signIn('admin');
    await page.goto('/stocks/BHP:ASX/announcements');
    const list = page.getByRole('list', { name: 'Announcements' });
    await expect(list).toBeVisible();
    await expect(page.getByRole('table', { name: 'Announcements' })).toHaveCount(0);
    await expect(list.getByRole('listitem').first()).toContainText(/\d{1,2} \w{3} \d{4} \d{1,2}:\d{2} [AP]M/);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: testInfo.outputPath('announcements-phone.png'), fullPage: true });

    await page.getByRole('button', { name: 'Add Announcement' }).click();
    await expect(page.getByRole('dialog', { name: 'Add Announcement' })).toBeVisible();
    await expect(page.getByRole('dialog', { name: 'Add Announcement' }).getByLabel('PDF')).toBeVisible();
  });
});
