import type { Announcement, InitialPollProgress } from '@irp/proto';
import { routes } from '@/api/routes';
import { routePath } from '@/test/fakeApi';

export const STOCK_ID = '6f1c2d3e-4b5a-4c6d-8e7f-901234567890';

let next = 0;

/** An announcement as the service answers it (unit tests of this feature). */
export function announcement(overrides: Partial<Announcement> = {}): Announcement {
  next += 1;
  const n = String(next).padStart(12, '0');
  const sendGuid = overrides.sendGuid ?? `a1b2c3d4-0000-4000-8000-${n}`;
  return {
    id: `b1b2c3d4-0000-4000-8000-${n}`,
    stockId: STOCK_ID,
    sendGuid,
    headline: `Announcement ${next}`,
    headlineOriginal: null,
    date: '2025-03-21T21:50:00.000Z',
    priceSensitive: false,
    remotePath: '',
    localPath: `BHP/${sendGuid}.pdf`,
    pdfUrl: routePath(routes.announcements.pdf, { sendGuid }),
    fileProblem: null,
    videoUrl: '',
    videoDescription: '',
    thumbnailPageNum: null,
    sent: false,
    sendHistory: [],
    sendRequestedAt: null,
    numComments: 0,
    hits: 0,
    alertLatencyMs: null,
    deletedOn: null,
    origin: 'poll',
    autoSend: null,
    createdAt: '2025-03-21T21:51:00.000Z',
    ...overrides,
  };
}

/** An initial poll reading 2019 of 2019..2026 with 340 announcements stored so far. */
export function runningPoll(overrides: Partial<InitialPollProgress> = {}): InitialPollProgress {
  return {
    stockId: STOCK_ID,
    status: 'running',
    fromYear: 2019,
    toYear: 2026,
    currentYear: 2019,
    found: 340,
    startedAt: '2026-01-05T00:00:00.000Z',
    completedAt: null,
    error: null,
    ...overrides,
  };
}
