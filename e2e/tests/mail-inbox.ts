import type { Page } from '@playwright/test';
import { expect } from '../fixtures';

/** The mail inbox of the stack under test (maildev, the `mail-inbox` stand-in): its web app and API. */
export const INBOX_URL =
  process.env.E2E_MAIL_INBOX_URL ?? `http://127.0.0.1:${process.env.MAIL_INBOX_PORT ?? 3253}`;

export interface InboxMail {
  id: string;
  subject: string;
  to: Array<{ address: string }>;
  html?: string;
  text?: string;
  headers?: Record<string, string | string[]>;
  /** When the inbox received it (ISO). */
  time?: string;
}

export interface InboxWait {
  /** How long to wait for the mail (ms). */
  timeout?: number;
  /** Only a mail whose text or HTML holds this. */
  containing?: string;
  /**
   * Only a mail sent at or after this time (its Date header, to the second): the inbox keeps the mails of earlier runs, so a mail a test
   * makes the portal send again (same address, same content) is told apart from the last run's.
   */
  since?: Date;
}

/** Every mail to `address` the inbox holds now (no waiting): to check one did not come. */
export async function inboxMails(page: Page, address: string): Promise<InboxMail[]> {
  const res = await page.request.get(`${INBOX_URL}/api/email`);
  expect(res.ok(), `the inbox answered ${res.status()}`).toBe(true);
  const body = (await res.json()) as InboxMail[] | { data?: InboxMail[]; emails?: InboxMail[] };
  const mails = Array.isArray(body) ? body : (body.data ?? body.emails ?? []);
  return mails.filter((m) => m.to?.some((t) => t.address?.toLowerCase() === address.toLowerCase()));
}

/**
 * The newest mail to `address` in the inbox that matches `wait` (its text, the time it arrived), waiting up to
 * `wait.timeout` ms for it to arrive (default: the config's expect timeout, set for a loaded machine).
 */
export async function inboxMail(
  page: Page,
  address: string,
  { timeout, containing, since }: InboxWait = {},
): Promise<InboxMail> {
  let found: InboxMail | undefined;
  // maildev dates a mail by its Date header, to the whole second.
  const sinceSecond = since ? Math.floor(since.getTime() / 1000) * 1000 : 0;
  await expect
    .poll(
      async () => {
        const res = await page.request.get(`${INBOX_URL}/api/email`);
        if (!res.ok()) return `inbox answered ${res.status()}`;
        const body = (await res.json()) as InboxMail[] | { data?: InboxMail[]; emails?: InboxMail[] };
        const mails = Array.isArray(body) ? body : (body.data ?? body.emails ?? []);
        found = mails
          .filter((m) => m.to?.some((t) => t.address?.toLowerCase() === address.toLowerCase()))
          .filter((m) => !containing || `${m.text ?? ''}${m.html ?? ''}`.includes(containing))
          .filter((m) => !since || (m.time !== undefined && Date.parse(m.time) >= sinceSecond))
          .at(-1);
        return found ? 'arrived' : `${mails.length} mails, none to ${address}`;
      },
      {
        ...(timeout ? { timeout } : {}),
        message: `a mail to ${address}${containing ? ` holding '${containing}'` : ''}${since ? ` since ${since.toISOString()}` : ''} in the inbox (${INBOX_URL})`,
      },
    )
    .toBe('arrived');
  return found!;
}

/**
 * A header of the mail as it was sent (its raw source from the inbox, folded lines unfolded): e.g. the
 * List-Unsubscribe a mail client reads. Undefined when the mail has none.
 */
export async function inboxMailHeader(
  page: Page,
  mail: InboxMail,
  name: string,
): Promise<string | undefined> {
  const res = await page.request.get(`${INBOX_URL}/api/email/${encodeURIComponent(mail.id)}/source`);
  expect(res.status(), `the source of mail ${mail.id}`).toBe(200);
  const source = await res.text();
  const head = source.split(/\r?\n\r?\n/, 1)[0] ?? '';
  const lines = head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/);
  const prefix = `${name.toLowerCase()}:`;
  return lines
    .find((line) => line.toLowerCase().startsWith(prefix))
    ?.slice(prefix.length)
    .trim();
}
