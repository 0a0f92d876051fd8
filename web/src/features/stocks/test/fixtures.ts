import type { Note, Referer, VersionHistory } from '@irp/proto';
import { bhpStock, type PageStock } from '@/test/fixtures';

/** A stock as GET /api/stock/{combinedTicker} answers an admin (unit tests of this feature). */
export const STOCK: PageStock = bhpStock({ pollAsx: false, announcementStartYear: 2024 });

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
