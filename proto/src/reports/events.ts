import { z } from 'zod';

/**
 * Events of the reports service. `market-data.failed`: the market-data provider stayed unavailable after
 * the adapter's retries (a job could not load a day's trades or the quotes). The email-marketing service
 * mails it to the system settings' error email, which it projects from `system-settings.saved` (once per
 * key, docs/adr/0013); the reports service remembers the gap itself, so a report over that day says the
 * data is missing.
 */
export const MarketDataFailedEventSchema = z.object({
  /** One mail per key: the job, the day and the stocks' problem. */
  key: z.string(),
  job: z.enum(['sync-watchlist', 'prior-day', 'history', 'chart-data']),
  day: z.string().nullable(),
  tickers: z.array(z.string()),
  message: z.string(),
  at: z.string().datetime(),
});
export type MarketDataFailedEvent = z.infer<typeof MarketDataFailedEventSchema>;

/** The error mail's subject and text for a `market-data.failed` event. */
export function marketDataFailedMail(event: MarketDataFailedEvent): { subject: string; message: string } {
  const what =
    event.job === 'prior-day' || event.job === 'history'
      ? `trades${event.day ? ` of ${event.day}` : ''}`
      : event.job === 'chart-data'
        ? 'daily prices'
        : 'quotes';
  const tickers =
    event.tickers.length > 10
      ? `${event.tickers.slice(0, 10).join(', ')} and ${event.tickers.length - 10} more`
      : event.tickers.join(', ');
  return {
    subject: `Market data: the provider's ${what} could not be loaded`,
    message: `The market-data provider could not serve the ${what} of ${tickers || 'the watchlist'}: ${event.message}. Reports over the missing days say the data is missing; the job tries again on its next run.`,
  };
}
