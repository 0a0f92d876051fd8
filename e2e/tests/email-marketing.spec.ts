import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures';
import { inboxMail } from './mail-inbox';
import { signedInNewUser } from './user-helpers';

// What the settings show for a stored provider key (proto's API_KEY_MASK): the key is write-only.
const API_KEY_MASK = '••••••••';

// Demo data (services/email-marketing/src/seed.ts): BHP has Mailchimp-type settings on the providers'
// stand-in's 'demo-list' (3 members; 'big-list' has 8), test address ir-team@bhp.example, and demo
// subscribers (alice, bob, carol, dave confirmed); VOD has Campaign-Monitor-type settings. Every mail goes
// to the mail inbox (maildev) the stack runs.

const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });

async function openTab(page: Page, combinedTicker = 'BHP:ASX') {
  await page.goto(`/stocks/${combinedTicker}/email-marketing`);
  await expect(field(page, 'List ID')).toHaveValue(/.+/);
}

async function confirmSend(page: Page, button: 'Send Test Email' | 'Send To Subscribers') {
  await page.getByRole('button', { name: button }).click();
  const dialog = page.getByRole('dialog', { name: button });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Send', exact: true }).click();
}

test.describe('staff Email marketing tab', () => {
  test.beforeEach(async ({ signIn }) => {
    await signIn('admin');
  });

  test('shows the saved settings and the list subscriber count; Client ID only for the second provider', async ({
    page,
  }) => {
    await openTab(page);
    await expect(field(page, 'List ID')).toHaveValue('demo-list');
    // Write-only: the stored key shows as the mask; the count is asked without it.
    await expect(field(page, 'API key')).toHaveValue(API_KEY_MASK);
    await expect(page.getByText('demo-mailchimp-key-us1')).toHaveCount(0);
    await expect(page.getByTestId('subscriber-count')).toHaveText('3 subscribers');
    await expect(field(page, 'Client ID')).toHaveCount(0);
    await openTab(page, 'VOD:LSE');
    await expect(field(page, 'Client ID')).toHaveValue('demo-client');
    await expect(page.getByTestId('subscriber-count')).toHaveText('4 subscribers');
  });

  test('a wrong list shows the provider message in red; a key typed is never put in a URL', async ({
    page,
  }) => {
    const urls: string[] = [];
    page.on('request', (r) => urls.push(r.url()));
    await openTab(page);
    await expect(page.getByTestId('subscriber-count')).toHaveText('3 subscribers');
    await field(page, 'List ID').fill('no-such-list');
    await expect(page.getByTestId('subscriber-count')).toHaveAttribute('role', 'alert');
    await field(page, 'List ID').fill('demo-list');
    await field(page, 'API key').fill('wrong-key-us1');
    await expect(page.getByTestId('subscriber-count')).toHaveText(
      'Save to see the subscriber count with the new API key',
    );
    expect(urls.filter((u) => u.includes('wrong-key-us1') || u.includes('demo-mailchimp-key'))).toEqual([]);
  });

  test('Send Test Email: asks, sends, shows the preview link, and the test mail arrives', async ({
    page,
  }) => {
    await openTab(page);
    const sentAt = new Date();
    await confirmSend(page, 'Send Test Email');
    const result = page.getByTestId('send-result');
    await expect(result).toContainText('Test sent successfully.');
    const preview = result.getByRole('link', { name: 'Preview' });
    const href = await preview.getAttribute('href');
    expect(href).toMatch(/\/standin\/campaigns\/.+\/preview$/);
    expect((await page.request.get(href!)).status()).toBe(200);
    const mail = await inboxMail(page, 'ir-team@bhp.example', { since: sentAt });
    expect(mail.subject).toMatch(/^\[Test\] BHP/);
  });

  test('without the email-marketing key: the BOTH-keys message, nothing sent', async ({ page }) => {
    await openTab(page);
    await field(page, 'API key').fill('');
    let called = false;
    page.on('request', (r) => {
      if (r.url().includes('/api/TestSendAnnouncement/')) called = true;
    });
    await page.getByRole('button', { name: 'Send Test Email' }).click();
    await expect(
      page.getByText('You must define BOTH the product API Key and the email-marketing key'),
    ).toBeVisible();
    expect(called).toBe(false);
  });

  test('Send To Subscribers refuses a list of more than 5 subscribers', async ({ page }) => {
    await openTab(page);
    await field(page, 'List ID').fill('big-list');
    await expect(page.getByTestId('subscriber-count')).toHaveText('8 subscribers');
    await confirmSend(page, 'Send To Subscribers');
    await expect(page.getByTestId('send-result')).toHaveText(
      'Send To Subscribers is limited to lists of at most 5 subscribers; this list has 8.',
    );
  });

  test('lists the subscribers with their status and counts', async ({ page }) => {
    await openTab(page);
    await expect(page.getByTestId('subscriber-count-confirmed')).toHaveText('Confirmed4');
    await expect(page.getByTestId('subscriber-count-pending')).toHaveText('Pending1');
    await expect(page.getByTestId('subscriber-count-unsubscribed')).toHaveText('Unsubscribed1');
    await expect(page.getByText('alice@investors.example')).toBeVisible();
  });
});

test('an announcement sent from the Announcements tab reaches a subscriber’s inbox', async ({
  page,
  signIn,
}) => {
  await signIn('admin');
  await page.goto('/stocks/BHP:ASX/announcements');
  const row = page.getByTestId('announcement-row').first();
  await expect(row).toBeVisible();
  const headline = (await row.getByRole('link').first().textContent())?.trim() ?? '';
  page.on('dialog', (dialog) => void dialog.accept());
  // The inbox keeps earlier runs' mails: only one that arrives from now on counts.
  const sentAt = new Date();
  await row.getByRole('button', { name: /^Actions for / }).click();
  await page.getByRole('menuitem', { name: 'Send Email' }).click();
  await expect(page.getByText('Sent!', { exact: true })).toBeVisible();
  const mail = await inboxMail(page, 'alice@investors.example', { since: sentAt });
  expect(mail.subject).toContain(headline);
});

test('client with EditMailchimp but not TestSendAnnouncement: settings, no sends, no subscriber list', async ({
  page,
  signIn,
}) => {
  await signIn('announcer');
  await page.goto('/client-stocks/BHP:ASX?tab=email-marketing');
  await expect(field(page, 'List ID')).toHaveValue('demo-list');
  await expect(page.getByRole('button', { name: 'Send Test Email' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Send To Subscribers' })).toHaveCount(0);
  await expect(page.getByText('alice@investors.example')).toHaveCount(0);
});

test('client with EditMailchimp and TestSendAnnouncement but not ViewConfig: Send Test Email uses the stored product key, never shown', async ({
  page,
  signIn,
  browser,
}) => {
  // Exactly these two roles on BHP: the client form leaves the product key out (it needs ViewConfig).
  await signIn('admin');
  await page.goto('/');
  const productKey = ((await (await page.request.get('/api/stock/BHP:ASX')).json()) as { apiKey: string })
    .apiKey;
  expect(productKey).toBeTruthy();

  const answers: string[] = [];
  const user = await signedInNewUser(page, browser, 'tester', {
    permissions: [{ combinedTicker: 'BHP:ASX', roles: ['EditMailchimp', 'TestSendAnnouncement'] }],
  });
  user.on('response', (r) => {
    if (r.url().includes('/api/'))
      void r.text().then(
        (t) => answers.push(t),
        () => undefined,
      );
  });
  await expect(user.getByRole('heading', { name: 'Client Dashboard' })).toBeVisible();
  await user.goto('/client-stocks/BHP:ASX?tab=email-marketing');
  await expect(field(user, 'List ID')).toHaveValue('demo-list');
  const sentAt = new Date();
  await confirmSend(user, 'Send Test Email');
  await expect(user.getByTestId('send-result')).toContainText('Test sent successfully.');
  const mail = await inboxMail(user, 'ir-team@bhp.example', { since: sentAt });
  expect(mail.subject).toMatch(/^\[Test\] BHP/);
  expect(answers.length).toBeGreaterThan(0);
  expect(answers.filter((body) => body.includes(productKey))).toEqual([]);
  await user.context().close();
});
