import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from '../fixtures';
import { inboxMail } from './mail-inbox';

// Demo data: BHP has an API key, moderator emails 'moderator@bhp.example.com' and a comment template; the
// announcements seed put demo comments (some flagged, some answered) on its latest announcements. The
// `client` demo user holds ReplyToComment on BHP and ViewConfig only on VOD:LSE. Mails go to the stack's
// mail inbox (maildev).

const RUN = Date.now().toString(36);

interface Target {
  apiKey: string;
  sendGuid: string;
  headline: string;
}

/** BHP's API key and its newest announcement, as the admin's stock page reads them. */
async function bhpTarget(request: APIRequestContext): Promise<Target> {
  const stock = await request.get('/api/stock/BHP:ASX');
  expect(stock.status()).toBe(200);
  const body = (await stock.json()) as {
    apiKey: string;
    announcements: Array<{ sendGuid: string; headline: string; deletedOn: string | null }>;
  };
  const latest = body.announcements.find((a) => !a.deletedOn)!;
  return { apiKey: body.apiKey, sendGuid: latest.sendGuid, headline: latest.headline };
}

/**
 * An investor's comment through the widget API, as the company's IR site posts it: from another origin,
 * with none of the portal's cookies (a request context of its own).
 */
async function postThroughWidget(
  site: APIRequestContext,
  target: Target,
  name: string,
  email: string,
  comment: string,
) {
  const res = await site.post(`/api/widget/comments?apiKey=${encodeURIComponent(target.apiKey)}`, {
    data: { sendGuid: target.sendGuid, name, email, comment },
    headers: { Origin: 'https://www.bhp.example.com' },
  });
  expect(res.status(), await res.text()).toBe(201);
  expect(res.headers()['access-control-allow-origin']).toBe('*');
  return ((await res.json()) as { guid: string }).guid;
}

/** The comments table row of a commenter (table on a desktop, a card on a phone). */
const rowOf = (page: Page, name: string) =>
  page.getByTestId('comment-group').locator('tbody tr, li').filter({ hasText: name });

test.describe('announcement comments', () => {
  let site: APIRequestContext;
  test.beforeEach(async ({ playwright, baseURL }) => {
    site = await playwright.request.newContext({ baseURL });
  });
  test.afterEach(async () => {
    await site.dispose();
  });

  test('a widget comment is flagged or not, answered publicly, prefilled on reopening, and listed on the widget', async ({
    page,
    signIn,
  }) => {
    await signIn('admin');
    const target = await bhpTarget(page.request);
    const plainName = `Plain Investor ${RUN}`;
    const flaggedName = `Curious Trader ${RUN}`;
    const commenter = `trader-${RUN}@investor.example`;
    await postThroughWidget(
      site,
      target,
      plainName,
      `plain-${RUN}@investor.example`,
      'Could you explain the change in unit costs shown in this report?',
    );
    const guid = await postThroughWidget(
      site,
      target,
      flaggedName,
      commenter,
      'Will the half year results beat guidance before they are announced? I heard Rio Tinto is bidding.',
    );

    // The moderators hear of it, with the link to respond.
    const moderation = await inboxMail(page, 'moderator@bhp.example.com', { containing: flaggedName });
    expect(moderation.subject).toMatch(/^\[Flagged\] New comment on .*BHP/);
    expect(moderation.subject).toContain(target.headline);
    expect(moderation.text).toContain(`/AnnouncementCommentResponse/${guid}`);
    // The mail's own link opens the response page where the stack serves its web app (PUBLIC_BASE_URL).
    const mailed = (moderation.text ?? '').match(
      /https?:\/\/\S+\/AnnouncementCommentResponse\/[0-9a-f-]+/,
    )?.[0];
    expect(mailed, moderation.text).toBeDefined();
    expect(new URL(mailed!).origin).toBe(new URL(test.info().project.use.baseURL!).origin);
    await page.goto(mailed!);
    await expect(page.getByTestId('announcement-headline')).toHaveText(target.headline);

    // The announcement's comments: the flagged one with its reasons, the plain one without.
    await page.goto(`/AnnouncementComments/BHP:ASX/${target.sendGuid}`);
    await expect(page.getByText('feed the interactive announcements widget')).toBeVisible();
    await expect(page.getByTestId('comment-groups-total')).toContainText(/\d+ comment group/);
    const flaggedRow = rowOf(page, flaggedName);
    await expect(flaggedRow.getByText('Flagged', { exact: true })).toBeVisible();
    await expect(flaggedRow.getByTestId('flag-reasons')).toContainText('Rio Tinto');
    const plainRow = rowOf(page, plainName);
    await expect(plainRow).toBeVisible();
    await expect(plainRow.getByText('Flagged', { exact: true })).toHaveCount(0);
    await expect(plainRow.getByText('No response yet')).toBeVisible();

    // Respond publicly; what the moderator types stays text everywhere.
    await flaggedRow.getByRole('link', { name: `Edit response to ${flaggedName}` }).click();
    await expect(page).toHaveURL(new RegExp(`/AnnouncementCommentResponse/${guid}$`));
    await expect(page.getByTestId('announcement-headline')).toHaveText(target.headline);
    await expect(page.getByTestId('comment-details')).toContainText(commenter);
    await expect(page.getByTestId('comment-flags')).toContainText('Flagged for review');
    await expect(page.getByTestId('responded-warning')).toHaveCount(0);
    const answer = `We do not comment ahead of our results. <script>window.__pwned = true</script> ${RUN}`;
    await expect(page.getByLabel('Your response')).toHaveAttribute('rows', '10');
    await page.getByLabel('Your response').fill(answer);
    await page.getByRole('switch', { name: 'Post publicly' }).click();
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByText('Response submitted successfully')).toBeVisible();

    // Reopened: prefilled, with the warning of the earlier response.
    await page.reload();
    await expect(page.getByTestId('responded-warning')).toContainText('You responded to this comment on');
    await expect(page.getByTestId('responded-warning')).toContainText('You can continue to make edits');
    await expect(page.getByLabel('Your response')).toHaveValue(answer);
    await expect(page.getByRole('switch', { name: 'Post publicly' })).toBeChecked();

    // The comments page shows the response as text, never as markup.
    await page.goto(`/AnnouncementComments/BHP:ASX/${target.sendGuid}`);
    await expect(rowOf(page, flaggedName).getByText(answer)).toBeVisible();
    expect(await page.evaluate(() => (window as unknown as { __pwned?: boolean }).__pwned)).toBeUndefined();

    // The widget lists it with its response; the plain one is not public yet.
    const listing = await site.get(
      `/api/widget/comments?apiKey=${encodeURIComponent(target.apiKey)}&sendGuid=${target.sendGuid}`,
    );
    expect(listing.headers()['content-type']).toMatch(/^application\/json/);
    const group = (await listing.json()) as {
      comments: Array<{ guid: string; name: string; responses: Array<{ comment: string }> }>;
    };
    expect(group.comments.find((c) => c.guid === guid)?.responses).toEqual([
      expect.objectContaining({ comment: answer }),
    ]);
    expect(group.comments.some((c) => c.name === plainName)).toBe(false);

    // The commenter receives the response in the stock's template.
    const reply = await inboxMail(page, commenter, { containing: RUN });
    expect(reply.subject).toContain('responded to your comment');
    expect(reply.html ?? '').not.toContain('<script>window.__pwned');
  });

  test('a flagged comment cannot go public without a response: the message shows under the button', async ({
    page,
    signIn,
  }) => {
    await signIn('admin');
    const target = await bhpTarget(page.request);
    const guid = await postThroughWidget(
      site,
      target,
      `Rumour Hunter ${RUN}`,
      `rumour-${RUN}@investor.example`,
      'Is there a takeover approach being discussed right now? Email me at rumour@example.com',
    );
    await page.goto(`/AnnouncementCommentResponse/${guid}`);
    await page.getByRole('switch', { name: 'Post publicly' }).click();
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(
      page.getByRole('alert').filter({ hasText: 'write a response before posting it publicly' }),
    ).toBeVisible();
  });

  test("the staff Announcements tab links the Comments count to that announcement's comments", async ({
    page,
    signIn,
  }) => {
    await signIn('admin');
    await page.goto('/stocks/BHP:ASX/announcements');
    const link = page.getByRole('link', { name: /comments? on / }).first();
    await expect(link).toBeVisible();
    await link.click();
    await expect(page).toHaveURL(/\/AnnouncementComments\/BHP:ASX\/[0-9a-f-]{36}$/);
    await expect(page.getByTestId('comment-group')).toHaveCount(1);
  });

  test('the client Comments tab by role: shown with ReplyToComment, absent without it', async ({
    page,
    signIn,
  }) => {
    await signIn('client');
    await page.goto('/client-stocks/BHP:ASX?tab=comments');
    await expect(page.getByRole('tab', { name: 'Comments' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByTestId('comment-groups-total')).toContainText(/\d+ comment group/);
    await expect(page.getByTestId('comment-group').first()).toBeVisible();
    // The demo's seeded flagged question shows its flag to the company's moderator too.
    await expect(page.getByText('Flagged', { exact: true }).first()).toBeVisible();
    await expect(page.getByRole('button', { name: 'Save' })).toHaveCount(0);

    await page.goto('/client-stocks/VOD:LSE');
    await expect(page.getByRole('tab')).toHaveText(['Config']);
    // And the server refuses what the page hides.
    const refused = await page.request.get('/api/AnnouncementComments/?combinedTicker=VOD:LSE');
    expect(refused.status()).toBe(403);
  });
});

test.describe('announcement comments on a phone', () => {
  test.use({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true });

  test('the comments are cards and both pages fit the screen', async ({ page, signIn }) => {
    await signIn('admin');
    await page.goto('/AnnouncementComments/BHP:ASX');
    const group = page.getByTestId('comment-group').first();
    await expect(group).toBeVisible();
    await expect(page.getByRole('table')).toHaveCount(0);
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(await overflow()).toBeLessThanOrEqual(0);

    await group
      .getByRole('link', { name: /^Edit response to / })
      .first()
      .click();
    await expect(page.getByLabel('Your response')).toBeVisible();
    expect(await overflow()).toBeLessThanOrEqual(0);
  });
});
