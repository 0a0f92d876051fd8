import type { APIRequestContext, Page } from '@playwright/test';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { expect } from '../fixtures';

/** A ticker no other run has used: letters and digits from the clock plus a little randomness. */
export function uniqueTicker(prefix = 'E'): string {
  return `${prefix}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`.toUpperCase();
}

/** A page (its context's cookies) or a request context signed in through `storageState`. */
export type Session = Page | APIRequestContext;

const requestOf = (session: Session): APIRequestContext => ('request' in session ? session.request : session);

/** The XSRF-TOKEN cookie echoed as the app does, for a POST with the session. */
export async function csrfHeader(session: Session): Promise<Record<string, string>> {
  const cookies =
    'context' in session ? await session.context().cookies() : (await session.storageState()).cookies;
  return { 'x-xsrf-token': cookies.find((c) => c.name === 'XSRF-TOKEN')?.value ?? '' };
}

/**
 * Creates an ASX stock through POST /api/admin/stocks with the (admin) session. Quicker than /create where
 * the form is not what a test is about.
 */
export async function createStock(
  session: Session,
  ticker: string,
  fields: Record<string, unknown> = {},
): Promise<{ id: string; combinedTicker: string; companyName: string }> {
  const response = await requestOf(session).post('/api/admin/stocks', {
    headers: await csrfHeader(session),
    data: { ticker, exchange: 'ASX', companyName: `${ticker} Holdings`, ...fields },
  });
  expect(response.status(), await response.text()).toBe(200);
  const body = (await response.json()) as {
    stock: { id: string; combinedTicker: string; companyName: string };
  };
  return body.stock;
}

/** A new ASX stock with an API key (the accounting page offers only those), as the admin session. */
export async function stockWithApiKey(session: Session, prefix: string) {
  const key = await requestOf(session).get('/api/admin/apiKey');
  expect(key.status()).toBe(200);
  const { apiKey } = (await key.json()) as { apiKey: string };
  const ticker = uniqueTicker(prefix);
  const stock = await createStock(session, ticker, {
    apiKey,
    contactEmail: `accounts@${ticker.toLowerCase()}.example`,
  });
  return { ...stock, ticker };
}

/** A small real PDF made here, so an upload goes through the service's PDF check. */
export async function pdfFile(title: string): Promise<{ name: string; mimeType: string; buffer: Buffer }> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([595, 842]).drawText(title, { x: 50, y: 780, size: 18, font });
  doc.addPage([595, 842]).drawText('Page 2', { x: 50, y: 780, size: 12, font });
  return { name: 'announcement.pdf', mimeType: 'application/pdf', buffer: Buffer.from(await doc.save()) };
}
