import { expect, expectPath, SAVED_TEXT_MS, test } from '../fixtures';
import { createStock, uniqueTicker } from './stock-helpers';

const ADMIN_TABS = ['Config', 'Market', 'Email marketing', 'Announcements', 'Invoices', 'Notes', 'Reports'];

test.describe('stock page (admin)', () => {
  let ticker: string;

  test.beforeEach(async ({ page, signIn }) => {
    await signIn('admin');
    ticker = uniqueTicker('S');
    await page.goto('/');
    await createStock(page, ticker);
  });

  test('shows every tab, Config first, and the created date on the title', async ({ page }) => {
    await page.goto(`/stocks/${ticker}:ASX`);
    const heading = page.getByRole('heading', { name: `${ticker} ${ticker} Holdings` });
    await expect(heading).toBeVisible();
    await expect(page.getByRole('tab')).toHaveText(ADMIN_TABS);
    await expect(page.getByRole('tab', { name: 'Config' })).toHaveAttribute('aria-selected', 'true');
    await heading.hover();
    await expect(page.getByText(/^Created \d{1,2} \w{3} \d{4} \d{1,2}:\d{2} [AP]M$/)).toBeVisible();

    await page.getByRole('tab', { name: 'Market', exact: true }).click();
    await expectPath(page, `/stocks/${ticker}:ASX/market`);
    await expect(page.getByRole('heading', { name: 'Market Data' })).toBeVisible();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('status')).toHaveText('Nothing to Save');

    await page.getByRole('tab', { name: 'Reports' }).click();
    await expectPath(page, `/stocks/${ticker}:ASX/reports`);
    await expect(page.getByRole('button', { name: 'Generate' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Save' })).toHaveCount(0);
  });

  test('saves Config, keeps it over a reload and records the change in the version history', async ({
    page,
  }, testInfo) => {
    await page.clock.install();
    await page.goto(`/stocks/${ticker}:ASX/config`);
    const company = page.getByLabel('Company name');
    await expect(company).toHaveValue(`${ticker} Holdings`);

    const save = page.getByRole('button', { name: /^(Save|Saving\.\.\.|Saved!)$/ });
    await save.click();
    await expect(page.getByRole('status')).toHaveText('Nothing to Save');

    await company.fill(`${ticker} Resources`);
    await page.getByLabel('Contact emails').fill('ir@example.com');
    await page.getByRole('switch', { name: 'Email price-sensitive announcements' }).check({ force: true });
    await save.click();
    await expect(save).toHaveText('Saved!');
    // Back to Save after 3 seconds: the page's clock (installed before it loaded) moves on instead of the test
    // waiting for it.
    await page.clock.fastForward(SAVED_TEXT_MS);
    await expect(save).toHaveText('Save');

    await page.reload();
    await expect(company).toHaveValue(`${ticker} Resources`);
    await expect(page.getByLabel('Contact emails')).toHaveValue('ir@example.com');
    await expect(page.getByRole('switch', { name: 'Email price-sensitive announcements' })).toBeChecked();

    await page.getByRole('tab', { name: 'Notes' }).click();
    await expectPath(page, `/stocks/${ticker}:ASX/notes`);
    const latest = page.getByTestId('stock-version').first();
    await expect(latest).toContainText('admin');
    const row = latest.getByRole('row').filter({ hasText: 'companyName' });
    await expect(row.getByRole('cell')).toHaveText([
      'companyName',
      `${ticker} Holdings`,
      `${ticker} Resources`,
    ]);
    await expect(latest.getByRole('row').filter({ hasText: 'contactEmail' }).getByRole('cell')).toHaveText([
      'contactEmail',
      'none',
      'ir@example.com',
    ]);
    await expect(
      latest.getByRole('row').filter({ hasText: 'sendPriceSensitiveAnnouncements' }).getByRole('cell'),
    ).toHaveText(['sendPriceSensitiveAnnouncements', 'false', 'true']);
    // The create is the oldest version.
    await expect(page.getByTestId('stock-version')).toHaveCount(2);
    await page.screenshot({ path: testInfo.outputPath('stock-notes-desktop.png'), fullPage: true });
    await page.getByRole('tab', { name: 'Config' }).click();
    await page.screenshot({ path: testInfo.outputPath('stock-config-desktop.png'), fullPage: true });
  });

  test('generates an API key, saves it and links to the widget API', async ({ page }) => {
    await page.goto(`/stocks/${ticker}:ASX/config`);
    await page.getByRole('button', { name: 'Generate' }).click();
    const key = page.getByLabel('API key');
    await expect(key).not.toHaveValue('');
    const first = await key.inputValue();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('button', { name: 'Saved!' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Test API' })).toHaveAttribute(
      'href',
      `/api/widget/stock?apiKey=${encodeURIComponent(first)}`,
    );

    // A second key warns that applications using the first one will break; declining keeps it.
    page.once('dialog', (dialog) => {
      expect(dialog.message()).toContain('Existing applications using it will break');
      void dialog.dismiss();
    });
    await page.getByRole('button', { name: 'Generate' }).click();
    await expect(key).toHaveValue(first);
  });

  test('adds a note', async ({ page }) => {
    await page.goto(`/stocks/${ticker}:ASX/notes`);
    await expect(page.getByRole('heading', { name: 'Referrers' })).toBeVisible();
    await expect(page.getByRole('table', { name: 'Referrers' }).locator('th')).toHaveText([
      'Referrer',
      'Count',
      'First',
      'Last',
    ]);
    const text = `Renewal call ${ticker}`;
    await page.getByLabel('New note').fill(text);
    await page.getByRole('button', { name: 'Add Note' }).click();
    const note = page.getByRole('list', { name: 'Notes' }).getByRole('listitem').first();
    await expect(note).toContainText(text);
    await expect(note).toContainText('admin');
    await expect(page.getByLabel('New note')).toHaveValue('');
    await page.reload();
    await expect(page.getByRole('list', { name: 'Notes' })).toContainText(text);
  });

  test('changes the ticker with Confirm Change Ticker', async ({ page }) => {
    await page.goto(`/stocks/${ticker}:ASX/config`);
    await page.getByRole('button', { name: 'Change Ticker', exact: true }).click();
    // Unchanged: cancels.
    await page.getByRole('button', { name: 'Confirm Change Ticker' }).click();
    await expect(page.getByRole('button', { name: 'Change Ticker', exact: true })).toBeVisible();

    const renamed = uniqueTicker('R');
    await page.getByRole('button', { name: 'Change Ticker', exact: true }).click();
    await page.getByLabel('New ticker').fill(renamed.toLowerCase());
    await page.getByRole('button', { name: 'Confirm Change Ticker' }).click();
    await expectPath(page, `/stocks/${renamed}:ASX/config`);
    await expect(page.getByRole('heading', { name: `${renamed} ${ticker} Holdings` })).toBeVisible();
    await expect(page.getByLabel('Ticker', { exact: true })).toHaveValue(renamed);
  });

  test('archives after confirming and shows the stock under Archived on the dashboard', async ({ page }) => {
    const archived = async () => {
      const response = await page.request.get(`/api/stock/${ticker}:ASX`);
      expect(response.status()).toBe(200);
      return ((await response.json()) as { archived: boolean }).archived;
    };
    await page.goto(`/stocks/${ticker}:ASX/config`);

    // Declining the confirmation sends nothing: the stock stays as it was.
    let asked = '';
    page.once('dialog', (dialog) => {
      asked = `${dialog.type()}: ${dialog.message()}`;
      void dialog.dismiss();
    });
    await page.getByRole('button', { name: 'Archive' }).click();
    await expect.poll(() => asked).toBe(`confirm: Are you sure you want to archive ${ticker}?`);
    await expect(page.getByRole('button', { name: 'Archive' })).toBeVisible();
    expect(await archived()).toBe(false);

    page.once('dialog', (dialog) => {
      expect(dialog.type()).toBe('confirm');
      void dialog.accept();
    });
    await page.getByRole('button', { name: 'Archive' }).click();
    await expect(page.getByRole('button', { name: 'Unarchive' })).toBeVisible();
    expect(await archived()).toBe(true);

    await page.goto('/');
    await page.getByLabel('Filter').fill(ticker);
    await expect(page.getByRole('link', { name: ticker, exact: true })).toHaveCount(0);
    await page.getByLabel('Show').selectOption({ label: 'Archived' });
    await expect(page.getByRole('link', { name: ticker, exact: true }).first()).toBeVisible();
  });
});

test('a report-runner sees only the Reports tab', async ({ page, signIn, browser, sessionStates }) => {
  const ticker = uniqueTicker('P');
  const adminContext = await browser.newContext({
    baseURL: test.info().project.use.baseURL,
    storageState: await sessionStates('admin'),
  });
  try {
    await createStock(await adminContext.newPage(), ticker);
  } finally {
    await adminContext.close();
  }

  await signIn('reports');
  await page.goto(`/stocks/${ticker}:ASX/config`);
  await expectPath(page, `/stocks/${ticker}:ASX/reports`);
  await expect(page.getByRole('heading', { name: `${ticker} ${ticker} Holdings` })).toBeVisible();
  await expect(page.getByRole('tab')).toHaveText(['Reports']);
  await expect(page.getByRole('tab', { name: 'Reports' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('button', { name: 'Save' })).toHaveCount(0);
  await expect(page.getByLabel('Company name')).toHaveCount(0);
});

test.describe('at phone width', () => {
  test.use({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true });

  test('the stock page fits: tabs wrap, fields stack, tables scroll', async ({ page, signIn }, testInfo) => {
    await signIn('admin');
    const ticker = uniqueTicker('M');
    await page.goto('/');
    await createStock(page, ticker, { websiteUrl: 'www.example.com' });
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

    await page.goto(`/stocks/${ticker}:ASX/config`);
    await expect(page.getByLabel('Company name')).toBeVisible();
    expect(await overflow()).toBeLessThanOrEqual(0);
    for (const name of ADMIN_TABS)
      await expect(page.getByRole('tab', { name, exact: true })).toBeInViewport();
    // Fields stack: one input per row.
    const company = await page.getByLabel('Company name').boundingBox();
    const exchange = await page.getByLabel('Exchange').boundingBox();
    expect(company && exchange && Math.abs(company.x - exchange.x)).toBeLessThan(2);
    await page.screenshot({ path: testInfo.outputPath('stock-config-phone.png'), fullPage: true });

    await page.getByRole('tab', { name: 'Notes' }).click();
    await expect(page.getByRole('table', { name: 'Referrers' })).toBeAttached();
    expect(await overflow()).toBeLessThanOrEqual(0);
    await page.screenshot({ path: testInfo.outputPath('stock-notes-phone.png'), fullPage: true });
  });
});
