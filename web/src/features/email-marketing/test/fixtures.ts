import type { EmailMarketingSettings, Subscriber } from '@irp/proto';
import type { StaffStock } from '@/lib/tabs/stockPageTabs';
import { bhpStock } from '@/test/fixtures';

export const STOCK_ID = '6f1c2d3e-4b5a-4c6d-8e7f-901234567890';

/** A stock as GET /api/stock/{combinedTicker} answers an admin, with a product API key. */
export const STOCK: StaffStock = {
  ...bhpStock({ id: STOCK_ID, apiKey: 'product-key-1' }),
  announcements: [],
  initialPoll: null,
  unavailable: [],
};

/** Settings saved for the first provider type (its client ID left over from the second). */
export const SAVED: EmailMarketingSettings = {
  provider: 'mailchimp',
  listId: 'list-42',
  apiKey: 'em-key-us21',
  templateId: 'tpl-7',
  replyTo: 'ir@bhp.example',
  fromName: 'BHP Investor Relations',
  savedSegmentId: 'seg-3',
  clientId: '',
  testEmailAddresses: 'a@bhp.example; b@bhp.example',
};

let next = 0;

/** A subscriber as the staff list answers it. */
export function subscriber(overrides: Partial<Subscriber> = {}): Subscriber {
  next += 1;
  return {
    id: `c1b2c3d4-0000-4000-8000-${String(next).padStart(12, '0')}`,
    stockId: STOCK_ID,
    email: `investor${next}@example.com`,
    status: 'confirmed',
    subscribedAt: '2025-03-21T21:50:00.000Z',
    consentIp: '203.0.113.9',
    consentUserAgent: 'Mozilla/5.0',
    confirmedAt: '2025-03-21T22:05:00.000Z',
    unsubscribedAt: null,
    preference: 'all',
    pausedUntil: null,
    suppressed: null,
    ...overrides,
  };
}

/** The confirmed subscribers' choices of a list with none of them (the list's `choices`). */
export const NO_CHOICES = { all: 0, 'price-sensitive': 0, paused: 0, suppressed: 0 };

/** A stock's deliverability with nothing mailed in its days (the panel's empty state). */
export const NO_DELIVERABILITY = {
  days: [],
  totals: { sent: 0, accepted: 0, bounced: 0, complained: 0, unsubscribed: 0 },
  complaintRate: null,
  alerts: [],
};
