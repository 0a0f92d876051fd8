import { ANNOUNCEMENT_PAGE_MAX, ErrorCode, NOT_DELIVERED, StoredAnnouncement, Topics } from '@irp/proto';
import { AppError } from '@irp/platform';
import { FIXTURE_STOCK_ID } from '@irp/proto/testing';
import { ServicesClient } from '../kafka/services.client';
import { AnnouncementDeliveries, withDeliveryState } from './announcement-deliveries';

const guid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

function stored(n: number): StoredAnnouncement {
  return {
    id: guid(1000 + n),
    stockId: FIXTURE_STOCK_ID,
    sendGuid: guid(n),
    headline: `Announcement ${n}`,
    headlineOriginal: null,
    date: '2026-11-02T00:00:00.000Z',
    priceSensitive: false,
    remotePath: '',
    localPath: null,
    pdfUrl: null,
    fileProblem: null,
    videoUrl: '',
    videoDescription: '',
    thumbnailPageNum: null,
    sendRequestedAt: null,
    numComments: 0,
    hits: 0,
    deletedOn: null,
    origin: 'manual',
    autoSend: null,
    createdAt: '2026-11-02T00:00:01.000Z',
  };
}

const mailed = {
  sendGuid: guid(2),
  sent: true,
  sendHistory: [{ timestamp: '2026-11-02T00:00:05.000Z', emailAddress: 'investor@x.example' }],
  alertLatencyMs: 5000,
};

function deliveries(answer: () => Promise<unknown>) {
  const calls: Array<{ topic: string; payload: unknown; timeoutMs?: number }> = [];
  const services = {
    request: (topic: string, payload: unknown, timeoutMs?: number) => {
      calls.push({ topic, payload, timeoutMs });
      return answer();
    },
  } as unknown as ServicesClient;
  return { d: new AnnouncementDeliveries(services, { STOCK_PAGE_CONTRIBUTOR_TIMEOUT_MS: 1500 }), calls };
}

describe('withDeliveryState', () => {
  it("gives each announcement its history's state, and one never mailed the state of nothing sent", () => {
    const [first, second] = withDeliveryState([stored(1), stored(2)], [mailed]);
    expect(first).toEqual({ ...stored(1), ...NOT_DELIVERED });
    expect(second).toEqual({
      ...stored(2),
      sent: true,
      sendHistory: mailed.sendHistory,
      alertLatencyMs: 5000,
    });
  });
});

describe('AnnouncementDeliveries', () => {
  it("asks the email-marketing service for these announcements' history within the page's deadline", async () => {
    const { d, calls } = deliveries(async () => ({ announcements: [mailed] }));
    const { announcements, unavailable } = await d.of([stored(1), stored(2)]);
    expect(announcements.map((a) => a.sent)).toEqual([false, true]);
    expect(unavailable).toEqual([]);
    expect(calls).toEqual([
      {
        topic: Topics.EmailMarketingSendHistory,
        payload: { stockId: FIXTURE_STOCK_ID, sendGuids: [guid(1), guid(2)] },
        timeoutMs: 1500,
      },
    ]);
  });

  it("asks for a page's own history, the whole stock's for a longer list, and nothing for no announcements", async () => {
    const { d, calls } = deliveries(async () => ({ announcements: [] }));
    const page = Array.from({ length: ANNOUNCEMENT_PAGE_MAX }, (_, i) => stored(i + 1));
    await d.of(page);
    expect(calls[0].payload).toEqual({ stockId: FIXTURE_STOCK_ID, sendGuids: page.map((a) => a.sendGuid) });
    await d.of([...page, stored(ANNOUNCEMENT_PAGE_MAX + 1)]);
    expect(calls[1].payload).toEqual({ stockId: FIXTURE_STOCK_ID, sendGuids: undefined });
    await expect(d.of([])).resolves.toEqual({ announcements: [], unavailable: [] });
    expect(calls).toHaveLength(2);
  });

  it('answers the announcements as not mailed and names the service when it does not answer', async () => {
    const { d } = deliveries(async () => {
      throw new AppError(
        ErrorCode.ServiceUnavailable,
        'The email-marketing service is not available right now',
      );
    });
    await expect(d.one(stored(2))).resolves.toEqual({
      announcement: { ...stored(2), ...NOT_DELIVERED },
      unavailable: ['email-marketing'],
    });
  });
});
