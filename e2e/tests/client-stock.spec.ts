import { expect, SAVED_TEXT_MS, test } from '../fixtures';

// Demo users: `client` holds ViewConfig, EditAnnouncements, EditMailchimp, ReplyToComment and Invoicing on
// BHP and ViewConfig only on VOD:LSE; `announcer` holds EditAnnouncements and EditMailchimp on BHP, no
// ViewConfig. The browser suite runs on a database of its own with exactly the demo data.

// In order, in one worker: one test saves BHP's config (and puts it back), another reads it twice to show a
// refused save changed nothing.
test.describe.configure({ mode: 'default' });

test.describe('client stock page', () => {
  test('the client edits and saves Config; a reload shows the saved value', async ({ page, signIn }) => {
    await signIn('client');
    await page.clock.install();
    await page.goto('/client-stocks/BHP:ASX');
    await expect(page.getByTestId('route-param-combinedTicker')).toHaveText('BHP:ASX');
    await expect(page.getByRole('tab', { name: 'Config' })).toHaveAttribute('aria-selected', 'true');

    const field = page.getByLabel('Announcement notification emails');
    const original = await field.inputValue();
    const value = `e2e-${Date.now().toString(36)}@example.com`;
    await field.fill(value);
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('button', { name: 'Saved!' })).toBeVisible();
    // Back to Save after 3 seconds: the page's clock (installed before it loaded) moves on instead of the test
    // waiting for it.
    await page.clock.fastForward(SAVED_TEXT_MS);
    await expect(page.getByRole('button', { name: 'Save', exact: true })).toBeVisible();

    await page.reload();
    await expect(page.getByLabel('Announcement notification emails')).toHaveValue(value);

    // Put the demo value back.
    await page.getByLabel('Announcement notification emails').fill(original);
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('button', { name: 'Saved!' })).toBeVisible();
  });

  test("saving without changes says 'Nothing to Save'", async ({ page, signIn }) => {
    await signIn('client');
    await page.goto('/client-stocks/BHP:ASX');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('dialog').getByText('Nothing to Save')).toBeVisible();
  });

  test("an invalid email shows the server's message in a modal", async ({ page, signIn }) => {
    await signIn('client');
    await page.goto('/client-stocks/BHP:ASX');
    await page.getByLabel('Contact emails').fill('not-an-email');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('dialog')).toContainText('Invalid email address in');
    await expect(page.getByRole('dialog')).toContainText('not-an-email');
    await expect(page.getByRole('button', { name: 'Save', exact: true })).toBeEnabled();
  });

  test('ViewConfig alone: only the Config tab, without the comment fields', async ({ page, signIn }) => {
    await signIn('client');
    await page.goto('/client-stocks/VOD:LSE');
    await expect(page.getByRole('tab')).toHaveText(['Config']);
    await expect(page.getByLabel('Website')).toBeVisible();
    await expect(page.getByLabel('Moderator emails')).toHaveCount(0);
  });

  test('every tab the roles allow, the one from ?tab= first; Comments has no Save', async ({
    page,
    signIn,
  }) => {
    await signIn('client');
    await page.goto('/client-stocks/BHP:ASX?tab=comments');
    await expect(page.getByRole('tab')).toHaveText([
      'Config',
      'Announcements',
      'Email marketing',
      'Comments',
    ]);
    await expect(page.getByRole('tab', { name: 'Comments' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('button', { name: 'Save' })).toHaveCount(0);

    await page.getByRole('tab', { name: 'Config' }).click();
    await expect(page).toHaveURL(/\?tab=config$/);
    await expect(page.getByLabel('Announcement comment template')).toHaveAttribute('rows', '10');
    await expect(page.getByLabel('Moderator emails')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Save' })).toBeVisible();
  });

  test('without ViewConfig on a stock there is no Config tab, and the API refuses a config save', async ({
    page,
    signIn,
  }) => {
    await signIn('announcer');
    await page.goto('/client-stocks/BHP:ASX');
    await expect(page.getByRole('tab')).toHaveText(['Announcements', 'Email marketing']);
    await expect(page.getByRole('tab', { name: 'Announcements' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByLabel('Website')).toHaveCount(0);

    const read = async () => {
      const response = await page.request.get('/api/ClientStock/?combinedTicker=BHP:ASX');
      expect(response.status()).toBe(200);
      return (await response.json()) as Record<string, unknown>;
    };
    const before = await read();
    const csrf = (await page.context().cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
    const save = await page.request.post('/api/ClientStock', {
      headers: { 'x-xsrf-token': csrf },
      data: { combinedTicker: 'BHP:ASX', websiteUrl: 'https://hijacked.example' },
    });
    expect(save.status()).toBe(403);
    expect((await save.json()).errorMessage).toContain('ViewConfig');
    // Nothing stored changed: the same stock, field for field (its version included).
    expect(await read()).toEqual(before);
  });

  test('a stock the client has no role on: the API answers 403 and the page says so', async ({
    page,
    signIn,
  }) => {
    await signIn('client');
    await page.goto('/');
    const response = await page.request.get('/api/ClientStock/?combinedTicker=CBA:ASX');
    expect(response.status()).toBe(403);

    await page.goto('/client-stocks/CBA:ASX');
    await expect(page.getByRole('alert')).toHaveText('You do not have access to this stock');
    await expect(page.getByRole('tab')).toHaveCount(0);
  });
});

test.describe('client stock page on a phone', () => {
  test.use({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true });

  test('fits the screen', async ({ page, signIn }) => {
    await signIn('client');
    await page.goto('/client-stocks/BHP:ASX');
    await expect(page.getByLabel('Company name')).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
});
