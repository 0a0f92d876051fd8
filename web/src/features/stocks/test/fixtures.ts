import type { Note, Referer, Stock, VersionHistory } from '@irp/proto';

/** A stock as GET /api/stock/{combinedTicker} answers an admin (unit tests of this feature). */
export const STOCK: Stock = {
  id: '6f1c2d3e-4b5a-4c6d-8e7f-901234567890',
  ticker: 'BHP',
  exchange: 'ASX',
  combinedTicker: 'BHP:ASX',
  isin: '',
  companyName: 'BHP Group',
  created: '2025-03-21T21:50:00.000Z',
  archived: false,
  pollAsx: false,
  completedInitialPoll: true,
  sendPriceSensitiveAnnouncements: true,
  sendNonPriceSensitiveAnnouncements: false,
  autoSendAnnouncementEmail: false,
  autoSendNonPriceSensitiveAnnouncements: false,
  autoSendFilter: '',
  announcementStartYear: 2024,
  confirmationEmail: 'ir@bhp.example',
  moderatorEmail: '',
  contactEmail: '',
  billingDate: '2025-06-30T14:00:00.000Z',
  websiteUrl: 'www.bhp.example',
  apiKey: null,
  announcementNotificationEmails: '',
  accountingReference: 'BHP-1',
  subscriptionExpired: false,
  companyLogoUrl: '',
  announcementCommentTemplate: '',
  disableMarketData: false,
  version: 3,
  updatedAt: '2025-07-01T00:00:00.000Z',
};

export const NOTES: Note[] = [
  {
    id: '0b7f8d7e-1c2b-4a3d-9e8f-112233445566',
    date: '2025-03-21T21:50:00.000Z',
    user: 'admin',
    details: 'Called the company secretary',
  },
];

export const REFERERS: Referer[] = [
  {
    url: 'https://www.bhp.example/investors',
    count: 42,
    first: '2025-01-01T00:00:00.000Z',
    last: '2025-03-21T21:50:00.000Z',
  },
];

export const VERSIONS: VersionHistory[] = [
  {
    versionId: 2,
    changedOn: '2025-06-01T04:05:00.000Z',
    changedBy: 'admin',
    changes: [
      { fieldName: 'companyName', originalValue: 'BHP Billiton', newValue: 'BHP Group' },
      { fieldName: 'apiKey', originalValue: null, newValue: 'key-1' },
    ],
  },
];
