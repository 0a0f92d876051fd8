import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from '../fixtures';
import { inboxMail, inboxMailHeader, inboxMails, type InboxMail } from './mail-inbox';
import { createStock, csrfHeader, pdfFile, uniqueTicker } from './stock-helpers';

// The public pages behind the links of subscriber mails (docs/api/email-marketing.md, texts from
// proto/src/email-marketing/rules.ts): /subscription/confirm/{token} (double opt-in, the confirmation mail)
// and /subscription/unsubscribe/{token} (every subscriber mail; asks, then one click unsubscribes). Each
// test subscribes a new address to a stock of its own, so the demo stocks' subscriber counts stay as seeded.

const CHECK_INBOX = 'Thank you. Please check your inbox and confirm your subscription.';
const CONFIRMED = 'Your subscription is confirmed.';
const UNSUBSCRIBED = 'You are unsubscribed and will receive no more announcements.';
const INVALID_LINK = 'This link is not valid (it may have been used already or expired).';

interface Subscribed {
  stock: { id: string; combinedTicker: string; companyName: string };
  email: string;
  /** The confirmation mail as it arrived in the stack's inbox. */
  mail: InboxMail;
  /** The stock's widget API key (another investor subscribes with it). */
  apiKey: string;
}

/**
 * A stock of its own with an API key (created by the admin session `admin`), and an investor who subscribes
 * to it through the widget API as the company's IR site posts it: from another origin, without cookies.
 */
async function subscribeOnNewStock(
  page: Page,
  admin: APIRequestContext,
  site: APIRequestContext,
): Promise<Subscribed> {
  const key = await admin.get('/api/admin/apiKey');
  expect(key.status()).toBe(200);
  const { apiKey } = (await key.json()) as { apiKey: string };
  const ticker = uniqueTicker('U');
  const stock = await createStock(admin, ticker, {
    apiKey,
    sendPriceSensitiveAnnouncements: true,
    sendNonPriceSensitiveAnnouncements: true,
  });
  const email = `investor-${ticker.toLowerCase()}@investors.example`;
  const subscribe = () =>
    site.post(`/api/widget/subscribe?apiKey=${encodeURIComponent(apiKey)}`, {
      data: { email },
      headers: { Origin: 'https://www.ir-site.example' },
    });
  // The email-marketing service learns of the new stock from its Kafka event: until then the key's stock
  // is unknown to it (refused before anything is counted against the address).
  let body: unknown;
  await expect
    .poll(
      async () => {
        const response = await subscribe();
        body = await response.json();
        return response.status();
      },
      { message: 'the widget subscribe of a new stock answers 200' },
    )
    .toBe(200);
  expect(body).toEqual({ success: true, status: 'pending', message: CHECK_INBOX });

  const mail = await inboxMail(page, email);
  expect(mail.subject).toBe(`Confirm your subscription to ${stock.companyName} announcements`);
  return { stock, email, mail, apiKey };
}

/** An announcement saved on the stock and sent from the Announcements routes, as staff do. */
async function saveAndSend(
  admin: APIRequestContext,
  combinedTicker: string,
  headline: string,
  priceSensitive: boolean,
): Promise<void> {
  const saved = await admin.post(`/api/Announcement/save/${combinedTicker}`, {
    headers: await csrfHeader(admin),
    multipart: {
      headline,
      date: '22 Mar 2025 8:50 AM',
      priceSensitive: String(priceSensitive),
      file: await pdfFile(headline),
    },
  });
  expect(saved.status(), await saved.text()).toBe(200);
  const { announcement } = (await saved.json()) as { announcement: { sendGuid: string } };
  const sent = await admin.post(`/api/Announcement/send/${combinedTicker}`, {
    headers: await csrfHeader(admin),
    data: { sendGuid: announcement.sendGuid },
  });
  expect(sent.status(), await sent.text()).toBe(200);
}

/** Shows a mail's HTML part in the page, as a mail client does, to click its links. */
async function openMail(page: Page, mail: InboxMail): Promise<void> {
  expect(mail.html, `the HTML part of '${mail.subject}'`).toBeTruthy();
  await page.setContent(mail.html ?? '');
}

/** Clicks a link of the mail shown by openMail, checks it leads to this stack's page, and waits for it. */
async function followLink(page: Page, name: string, path: RegExp, baseURL: string): Promise<string> {
  const link = page.getByRole('link', { name, exact: true });
  const href = (await link.getAttribute('href')) ?? '';
  expect(href.startsWith(`${baseURL}/`), `${href} is on ${baseURL} (the stack's PUBLIC_BASE_URL)`).toBe(true);
  expect(new URL(href).pathname).toMatch(path);
  await link.click();
  await expect(page).toHaveURL(href);
  return href;
}

const overflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

test.describe('public subscription pages', () => {
  let admin: APIRequestContext;
  let site: APIRequestContext;
  test.beforeEach(async ({ playwright, baseURL, sessionStates }) => {
    admin = await playwright.request.newContext({ baseURL, storageState: await sessionStates('admin') });
    site = await playwright.request.newContext({ baseURL });
  });
  test.afterEach(async () => {
    await admin.dispose();
    await site.dispose();
  });

  test('the confirm link confirms once; an announcement mail’s unsubscribe link asks, unsubscribes, and staff see it', async ({
    page,
    baseURL,
    signIn,
  }) => {
    test.setTimeout(90_000);
    const { stock, email, mail } = await subscribeOnNewStock(page, admin, site);

    // The investor (not signed in) follows the confirmation link of the mail: confirmed on opening.
    await openMail(page, mail);
    await followLink(page, 'Confirm subscription', /^\/subscription\/confirm\/[^/]+$/, baseURL!);
    await expect(page.getByRole('heading', { name: 'Confirm subscription' })).toBeVisible();
    const confirmed = page.getByRole('status');
    await expect(confirmed).toContainText(CONFIRMED);
    await expect(confirmed).toContainText(
      `${email} will receive the announcements of ${stock.companyName} by email. Every email has a link to unsubscribe.`,
    );
    await expect(page.getByRole('banner')).toHaveCount(0);

    // The link works once: opened again, it says so.
    await page.reload();
    await expect(page.getByRole('alert')).toHaveText(INVALID_LINK);
    await expect(page.getByRole('status')).toHaveCount(0);

    // Confirmed, the investor receives the stock's next announcement, with the visible unsubscribe link and
    // the one-click headers (RFC 8058).
    const headline = `Quarterly Activities Report ${stock.combinedTicker}`;
    await saveAndSend(admin, stock.combinedTicker, headline, true);
    const announcementMail = await inboxMail(page, email, { containing: headline });
    expect(announcementMail.subject).toContain(headline);
    expect(await inboxMailHeader(page, announcementMail, 'List-Unsubscribe')).toMatch(
      new RegExp(`^<${baseURL}/api/subscription/unsubscribe/[^>]+>$`),
    );
    expect(await inboxMailHeader(page, announcementMail, 'List-Unsubscribe-Post')).toBe(
      'List-Unsubscribe=One-Click',
    );

    // The unsubscribe link asks first (a link scanner that only opens it changes nothing) ...
    await openMail(page, announcementMail);
    await followLink(page, 'Unsubscribe', /^\/subscription\/unsubscribe\/[^/]+$/, baseURL!);
    await expect(page.getByRole('heading', { name: 'Unsubscribe' })).toBeVisible();
    await expect(
      page.getByText(`Stop sending the announcements of ${stock.companyName} to this address?`),
    ).toBeVisible();
    // The link does not tell its reader whose it is (a forwarded mail).
    await expect(page.getByText(email)).toHaveCount(0);
    await expect(page.getByRole('status')).toHaveCount(0);

    // ... then one click unsubscribes.
    await page.getByRole('button', { name: 'Unsubscribe' }).click();
    await expect(page.getByRole('status')).toHaveText(UNSUBSCRIBED);
    await expect(page.getByRole('button', { name: 'Unsubscribe' })).toHaveCount(0);

    // A second visit of the link: unsubscribed already, nothing to click.
    await page.reload();
    await expect(page.getByRole('status')).toHaveText(UNSUBSCRIBED);
    await expect(page.getByRole('button', { name: 'Unsubscribe' })).toHaveCount(0);

    // Staff see the subscriber as unsubscribed on the stock's Email marketing tab.
    await signIn('admin');
    await page.goto(`/stocks/${stock.combinedTicker}/email-marketing`);
    await expect(page.getByTestId('subscriber-count-unsubscribed')).toHaveText('Unsubscribed1');
    await expect(page.getByTestId('subscriber-count-confirmed')).toHaveText('Confirmed0');
    await expect(page.getByTestId('subscriber-count-pending')).toHaveText('Pending0');
    const row = page.getByRole('table', { name: 'Subscribers' }).getByRole('row').filter({ hasText: email });
    await expect(row.getByRole('cell').nth(1)).toHaveText('Unsubscribed');
  });

  test('an announcement mail’s preference link: price-sensitive only, then a routine announcement is not mailed to it and a price-sensitive one is; staff see the choice', async ({
    page,
    baseURL,
    signIn,
  }) => {
    test.setTimeout(150_000);
    const { stock, email, mail, apiKey } = await subscribeOnNewStock(page, admin, site);
    await openMail(page, mail);
    await followLink(page, 'Confirm subscription', /^\/subscription\/confirm\/[^/]+$/, baseURL!);
    await expect(page.getByRole('status')).toContainText(CONFIRMED);
    // A second investor keeps every announcement: the mail it gets shows a send has been made.
    const other = email.replace('investor-', 'every-');
    const widget = await site.post(`/api/widget/subscribe?apiKey=${encodeURIComponent(apiKey)}`, {
      data: { email: other },
      headers: { Origin: 'https://www.ir-site.example' },
    });
    expect(widget.status()).toBe(200);
    await openMail(page, await inboxMail(page, other));
    await followLink(page, 'Confirm subscription', /^\/subscription\/confirm\/[^/]+$/, baseURL!);
    await expect(page.getByRole('status')).toContainText(CONFIRMED);

    // The first announcement's mail links to the preference page ...
    const first = `Appendix 4D ${stock.combinedTicker}`;
    await saveAndSend(admin, stock.combinedTicker, first, true);
    await openMail(page, await inboxMail(page, email, { containing: first }));
    await followLink(page, 'Choose what you receive', /^\/subscription\/preferences\/[^/]+$/, baseURL!);
    await expect(page.getByRole('heading', { name: 'Your email preferences' })).toBeVisible();
    await expect(
      page.getByText(`The announcements of ${stock.companyName} by email: choose what you receive.`),
    ).toBeVisible();
    await expect(page.getByText(email)).toHaveCount(0);
    await expect(page.getByRole('radio', { name: 'Every announcement, as it is released' })).toBeChecked();
    // ... where the investor chooses price-sensitive announcements only.
    await page.getByRole('radio', { name: 'Price-sensitive announcements only' }).check();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('status')).toHaveText('Your preferences are saved.');
    await page.reload();
    await expect(page.getByRole('radio', { name: 'Price-sensitive announcements only' })).toBeChecked();

    // A routine announcement reaches the other investor and not this one ...
    const routine = `Appendix 3Y ${stock.combinedTicker}`;
    await saveAndSend(admin, stock.combinedTicker, routine, false);
    await inboxMail(page, other, { containing: routine });
    expect(
      (await inboxMails(page, email)).filter((m) => `${m.text ?? ''}${m.html ?? ''}`.includes(routine)),
    ).toEqual([]);
    // ... a price-sensitive one reaches both.
    const results = `Half Year Results ${stock.combinedTicker}`;
    await saveAndSend(admin, stock.combinedTicker, results, true);
    await inboxMail(page, email, { containing: results });

    // Staff see the choice on the stock's Email marketing tab.
    await signIn('admin');
    await page.goto(`/stocks/${stock.combinedTicker}/email-marketing`);
    await expect(page.getByTestId('subscriber-choice-price-sensitive')).toHaveText('Price-sensitive only1');
    await expect(page.getByTestId('subscriber-choice-all')).toHaveText('Every announcement1');
    const row = page.getByRole('table', { name: 'Subscribers' }).getByRole('row').filter({ hasText: email });
    await expect(row.getByRole('cell').nth(2)).toHaveText('Price-sensitive only');
  });

  test.describe('at phone width', () => {
    test.use({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true });

    test('the confirm page and the unsubscribe page (the confirmation mail’s link) fit the screen', async ({
      page,
      baseURL,
    }, testInfo) => {
      const { stock, email, mail } = await subscribeOnNewStock(page, admin, site);

      await openMail(page, mail);
      await followLink(page, 'Confirm subscription', /^\/subscription\/confirm\/[^/]+$/, baseURL!);
      await expect(page.getByRole('status')).toContainText(CONFIRMED);
      await expect(page.getByRole('status')).toBeInViewport();
      expect(await overflow(page)).toBeLessThanOrEqual(0);
      await page.screenshot({ path: testInfo.outputPath('subscription-confirm-phone.png'), fullPage: true });

      // The confirmation mail's own way out ('Do not send me anything') is the unsubscribe page too.
      await openMail(page, mail);
      await followLink(page, 'Do not send me anything', /^\/subscription\/unsubscribe\/[^/]+$/, baseURL!);
      const question = page.getByText(
        `Stop sending the announcements of ${stock.companyName} to this address?`,
      );
      await expect(question).toBeVisible();
      await expect(page.getByText(email)).toHaveCount(0);
      const button = page.getByRole('button', { name: 'Unsubscribe' });
      await expect(button).toBeInViewport();
      expect(await overflow(page)).toBeLessThanOrEqual(0);
      await page.screenshot({
        path: testInfo.outputPath('subscription-unsubscribe-phone.png'),
        fullPage: true,
      });

      await button.tap();
      await expect(page.getByRole('status')).toHaveText(UNSUBSCRIBED);
      await expect(page.getByRole('status')).toBeInViewport();
      expect(await overflow(page)).toBeLessThanOrEqual(0);
    });
  });
});
