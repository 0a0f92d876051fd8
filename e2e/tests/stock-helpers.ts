import type { Page } from '@playwright/test';
import { expect } from '../fixtures';

/** A ticker no other run has used: letters and digits from the clock plus a little randomness. */
export function uniqueTicker(prefix = 'E'): string {
  return `${prefix}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`.toUpperCase();
}

/**
 * Creates an ASX stock through POST /api/admin/stocks with the page's (admin) session, echoing the
 * XSRF-TOKEN cookie as the app does. Quicker than /create where the form is not what a test is about.
 */
export async function createStock(
  page: Page,
  ticker: string,
  fields: Record<string, unknown> = {},
): Promise<{ id: string; combinedTicker: string }> {
  const cookies = await page.context().cookies();
  const csrf = cookies.find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  const response = await page.request.post('/api/admin/stocks', {
    headers: { 'x-xsrf-token': csrf },
    data: { ticker, exchange: 'ASX', companyName: `${ticker} Holdings`, ...fields },
  });
  expect(response.status(), await response.text()).toBe(200);
  const body = (await response.json()) as { stock: { id: string; combinedTicker: string } };
  return body.stock;
}
