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
  headers?: Record<string, string>;
}

/**
 * The newest mail to `address` in the inbox (with `containing`: the newest whose text or HTML holds it),
 * waiting up to `timeout` ms for it to arrive.
 */
export async function inboxMail(
  page: Page,
  address: string,
  timeout = 30_000,
  containing?: string,
): Promise<InboxMail> {
  let found: InboxMail | undefined;
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
          .at(-1);
        return found ? 'arrived' : `${mails.length} mails, none to ${address}`;
      },
      {
        timeout,
        message: `a mail to ${address}${containing ? ` holding '${containing}'` : ''} in the inbox (${INBOX_URL})`,
      },
    )
    .toBe('arrived');
  return found!;
}
