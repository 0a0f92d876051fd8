import { test as base, expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';

/**
 * How long a Save button says 'Saved!' before it reads 'Save' again (web/src/components/save/SaveFlow.tsx):
 * tests move the page's clock (`page.clock.install()` before the page loads) on by this much.
 */
export const SAVED_TEXT_MS = 3000;

/** The demo users the backend seeds (scripts/stack.mjs DEMO_LOGINS). */
export const DEMO_USERS = {
  admin: { username: 'admin', password: 'Admin!2026' },
  reports: { username: 'reports', password: 'Reports!2026' },
  useradmin: { username: 'useradmin', password: 'UserAdmin!2026' },
  client: { username: 'client', password: 'Client!2026' },
  announcer: { username: 'announcer', password: 'Announcer!2026' },
} as const;
export type DemoUser = keyof typeof DEMO_USERS;

type StorageState = Awaited<ReturnType<APIRequestContext['storageState']>>;

export function basicAuth(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}`;
}

/** GET /api/login with basic auth; the session cookies land in the request context's cookie jar. */
export async function apiLogin(request: APIRequestContext, user: DemoUser): Promise<void> {
  const { username, password } = DEMO_USERS[user];
  const response = await request.get('/api/login', {
    headers: { Authorization: basicAuth(username, password) },
  });
  if (response.status() === 429) {
    throw new Error(
      `sign-in as ${user} was throttled (gateway LOGIN_THROTTLE_LIMIT per minute); wait a minute or raise the limit`,
    );
  }
  expect(response.status(), `GET /api/login as ${user}`).toBe(200);
}

/** Waits until the page's path (without search) is `pathname`. */
export async function expectPath(page: Page, pathname: string): Promise<void> {
  await expect
    .poll(() => new URL(page.url()).pathname, { message: `path should be ${pathname}` })
    .toBe(pathname);
}

/**
 * The app's top navigation: the banner holding the 'IR Portal' home link (Mantine's drawer has a <header>
 * of its own, which is a banner too while the drawer is open or closing).
 */
export function appHeader(page: Page): Locator {
  return page.getByRole('banner').filter({ has: page.getByRole('link', { name: 'IR Portal' }) });
}

/**
 * The header menu: the header itself on a desktop, the drawer behind the burger on a phone (opened here).
 */
export async function openMenu(page: Page): Promise<Locator> {
  const banner = appHeader(page);
  await expect(banner).toBeVisible();
  const burger = banner.getByRole('button', { name: 'Open menu' });
  if (!(await burger.isVisible())) return banner;
  await burger.click();
  const drawer = page.getByRole('dialog', { name: 'Menu' });
  await expect(drawer).toBeVisible();
  return drawer;
}

/** Fills the login form of the current page and submits it. */
export async function signInViaUi(
  page: Page,
  user: DemoUser,
  password: string = DEMO_USERS[user].password,
): Promise<void> {
  await page.getByLabel('Username').fill(DEMO_USERS[user].username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
}

interface SessionFixtures {
  /**
   * Signs the page's browser context in as `user` with a session shared by the whole worker (one sign-in
   * per user, so the gateway's sign-in throttle is not hit). Do not log out of it: use `signInFresh`.
   */
  signIn: (user: DemoUser) => Promise<void>;
  /** Signs in with a session of its own (GET /api/login on the page's request context), e.g. to log out. */
  signInFresh: (user: DemoUser) => Promise<void>;
}

interface WorkerFixtures {
  sessionStates: (user: DemoUser) => Promise<StorageState>;
}

export const test = base.extend<SessionFixtures, WorkerFixtures>({
  sessionStates: [
    async ({ playwright }, use, workerInfo) => {
      const baseURL = workerInfo.project.use.baseURL;
      const states = new Map<DemoUser, Promise<StorageState>>();
      await use((user) => {
        let state = states.get(user);
        if (!state) {
          state = (async () => {
            const request = await playwright.request.newContext({ baseURL });
            try {
              await apiLogin(request, user);
              return await request.storageState();
            } finally {
              await request.dispose();
            }
          })();
          states.set(user, state);
        }
        return state;
      });
    },
    { scope: 'worker' },
  ],
  signIn: async ({ context, sessionStates }, use) => {
    await use(async (user) => {
      await context.addCookies((await sessionStates(user)).cookies);
    });
  },
  signInFresh: async ({ page }, use) => {
    await use((user) => apiLogin(page.request, user));
  },
});

export { expect };
