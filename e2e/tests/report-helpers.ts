import type { APIRequestContext } from '@playwright/test';
import { expect } from '../fixtures';
import { createStock, csrfHeader, uniqueTicker, type Session } from './stock-helpers';

const requestOf = (session: Session): APIRequestContext => ('request' in session ? session.request : session);

/**
 * Loads the previous ASX trading day's trades of every market-data stock (POST /api/admin/runPriorDay, as
 * the admin session): idempotent, so each spec calls it rather than depend on the job's timing. The day.
 */
export async function priorDayTrades(session: Session): Promise<string> {
  const response = await requestOf(session).post('/api/admin/runPriorDay', {
    headers: await csrfHeader(session),
    timeout: 0, // the run's own limit (a loaded machine makes it slower, never a failure)
  });
  expect(response.status(), await response.text()).toBe(200);
  const body = (await response.json()) as { success: boolean; day: string; errorMessage: string | null };
  expect(body.errorMessage).toBeNull();
  return body.day;
}

export interface ReportOptions {
  ticker: string;
  startDate: string;
  endDate: string;
  peers?: string;
  comparativeTradingActivity?: boolean;
  priceOverlay?: boolean;
  allowSearch?: boolean;
}

/** POST /api/admin/generateReport (multipart, as the Reports tab sends it); the new report's guid. */
export async function generateReport(session: Session, options: ReportOptions): Promise<string> {
  const response = await requestOf(session).post('/api/admin/generateReport', {
    headers: await csrfHeader(session),
    multipart: {
      Ticker: options.ticker,
      StartDate: options.startDate,
      EndDate: options.endDate,
      Peers: options.peers ?? '',
      ComparativeTradingActivity: String(options.comparativeTradingActivity ?? false),
      PriceOverlay: String(options.priceOverlay ?? false),
      AllowSearch: String(options.allowSearch ?? false),
    },
    timeout: 0, // the run's own limit
  });
  expect(response.status(), await response.text()).toBe(200);
  const body = (await response.json()) as { report: { guid: string } };
  return body.report.guid;
}

/**
 * A new ASX stock (admin session) once the reports service knows it: its projection of the stocks follows
 * `stock.upserted`, so the Market tab's calls name an unknown stock (404) for a moment after the create.
 */
export async function marketStock(session: Session, prefix: string) {
  const ticker = uniqueTicker(prefix);
  const stock = await createStock(session, ticker);
  await expect
    .poll(async () =>
      (await requestOf(session).get(`/api/admin/getChartData/?id=${encodeURIComponent(stock.id)}`)).status(),
    )
    .toBe(200);
  return { ...stock, ticker };
}
