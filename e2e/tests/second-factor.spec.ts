import type { Browser, BrowserContext, Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { expect, test } from '../fixtures';
import { csrfHeader } from './stock-helpers';
import { chooseOwnPassword } from './user-helpers';

// Second factors of staff sign-in (issue 34), in real Chromium: a passkey made and used by Chromium's own
// virtual authenticator (DevTools protocol WebAuthn), and an authenticator app whose code this test computes
// (RFC 6238 with otpauth, as the apps do). Passkeys are bound to a host name, never an IP address: these
// pages are opened at localhost, the stack's WEBAUTHN_RP_ID (scripts/stack.mjs).

const run = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;

/** The stack's address at `localhost` (the suite's baseURL names 127.0.0.1). */
const localhostUrl = () => {
  const url = new URL(test.info().project.use.baseURL!);
  url.hostname = 'localhost';
  return url.origin;
};

/** A browser context at localhost with a virtual authenticator (a platform one, user verified). */
async function contextWithAuthenticator(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: localhostUrl() });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { context, page };
}

async function passwordStep(page: Page, username: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
}

async function openAccountSecurity(page: Page) {
  await page.getByRole('button', { name: 'Account security' }).click();
  const dialog = page.getByRole('dialog', { name: 'Account security' });
  await expect(dialog).toBeVisible();
  return dialog;
}

/** The recovery codes shown once, acknowledged. */
async function takeRecoveryCodes(page: Page): Promise<string[]> {
  const list = page.getByTestId('recovery-codes');
  await expect(list).toBeVisible();
  const codes = (await list.getByRole('listitem').allTextContents()).map((c) => c.trim());
  await page.getByRole('button', { name: 'Done' }).click();
  return codes;
}

async function logout(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page.getByRole('button', { name: 'Login' })).toBeVisible();
}

test.describe('second factors', () => {
  test('a staff member adds a passkey and signs in with it; then an authenticator app, and signs in with its code', async ({
    page: admin,
    signIn,
    browser,
  }) => {
    const username = `e2e-mfa-${run()}`;
    const oneTime = `Harbour-${run()}-Kestrel`;
    const password = `Own-${run()}-Harbour`;
    await signIn('admin');
    await admin.goto('/');
    const created = await admin.request.post('/api/users/new', {
      headers: await csrfHeader(admin),
      data: { username, password: oneTime, permissions: [], roles: ['RunReports'] },
    });
    expect(created.status(), await created.text()).toBe(200);

    const { context, page } = await contextWithAuthenticator(browser);
    await passwordStep(page, username, oneTime);
    await chooseOwnPassword(page, oneTime, password);

    // A passkey: Chromium's authenticator makes the credential; the first factor brings recovery codes.
    let dialog = await openAccountSecurity(page);
    await dialog.getByLabel(/^Passkey name/).fill('Virtual authenticator');
    await dialog.getByRole('button', { name: 'Add passkey' }).click();
    const codes = await takeRecoveryCodes(page);
    expect(codes).toHaveLength(10);
    for (const c of codes) expect(c).toMatch(/^[0-9A-Z]{5}-[0-9A-Z]{5}$/);
    await expect(dialog.getByText('Virtual authenticator')).toBeVisible();
    await expect(dialog.getByText('10 recovery codes left')).toBeVisible();
    await page.keyboard.press('Escape');
    await logout(page);

    // The password alone no longer signs in: the passkey does.
    await passwordStep(page, username, password);
    const step = page.getByRole('region', { name: "Confirm it's you" });
    await expect(step).toBeVisible();
    await step.getByRole('button', { name: 'Use a passkey' }).click();
    await expect(page.getByTestId('signed-in-as')).toHaveText(`Logged in as ${username}`);

    // An authenticator app: the secret shown once, a code computed from it confirms it (no new recovery codes:
    // the user has them).
    dialog = await openAccountSecurity(page);
    await dialog.getByRole('button', { name: 'Set up an authenticator app' }).click();
    const secret = (await dialog.getByTestId('totp-secret').textContent())!.trim();
    const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });
    await dialog.getByLabel('Code from the app').fill(totp.generate());
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await expect(dialog.getByRole('button', { name: 'Remove authenticator app' })).toBeVisible();
    await expect(page.getByTestId('recovery-codes')).toHaveCount(0);
    await page.keyboard.press('Escape');
    await logout(page);

    // A wrong code is refused in the form; the code of the next 30 s signs in (the setup's step is spent).
    await passwordStep(page, username, password);
    const code = page.getByLabel('Authenticator or recovery code');
    await code.fill('000000');
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByRole('alert')).toContainText('That passkey or code was not accepted');
    await code.fill(totp.generate({ timestamp: Date.now() + 30_000 }));
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByTestId('signed-in-as')).toHaveText(`Logged in as ${username}`);
    await context.close();
  });
});
