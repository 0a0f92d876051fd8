import { ANNOUNCEMENT_PAGE_SIZE, AnnouncementList, ErrorCode, RequestOf, Topics } from '@irp/proto';
import { AppError } from '@irp/platform';
import { actor } from '@irp/proto/testing';
import { AnnouncementDeliveries } from '../announcements/announcement-deliveries';
import { ServicesClient } from '../kafka/services.client';
import { latestInitialPollOf, StockPageComposer } from './stock-page.composer';
import type { StockPageContributor } from './stock-page-contributor';

type ListRequest = RequestOf<typeof Topics.AnnouncementsList>;
const admin = actor({ username: 'admin', roles: ['Admin'] });
const CONFIG = { STOCK_PAGE_CONTRIBUTOR_TIMEOUT_MS: 1500 };

const list: AnnouncementList = {
  announcements: [],
  initialPoll: {
    stockId: '00000000-0000-4000-8000-00000000000a',
    status: 'running',
    fromYear: 2020,
    toYear: 2026,
    currentYear: 2022,
    found: 40,
    startedAt: '2026-01-01T00:00:00.000Z',
    completedAt: null,
    error: null,
  },
  next: '00000000-0000-4000-8000-0000000000ff',
};

function composer(answer: (req: ListRequest) => Promise<AnnouncementList>) {
  const calls: Array<{ topic: string; payload: ListRequest; timeoutMs?: number }> = [];
  const services = {
    request: (topic: string, payload: ListRequest, timeoutMs?: number) => {
      calls.push({ topic, payload, timeoutMs });
      return answer(payload);
    },
  } as unknown as ServicesClient;
  return {
    composer: new StockPageComposer(services, new AnnouncementDeliveries(services, CONFIG), CONFIG),
    calls,
  };
}

describe('StockPageComposer', () => {
  it("gives the stock's newest page of announcements, where the older continue, and its initial poll, asked with the short timeout", async () => {
    const { composer: c, calls } = composer(async () => list);
    await expect(c.announcementsOf(admin, 'BHP:ASX')).resolves.toEqual({
      announcements: [],
      announcementsNext: list.next,
      initialPoll: list.initialPoll,
      unavailable: [],
    });
    expect(calls).toEqual([
      {
        topic: Topics.AnnouncementsList,
        payload: {
          actor: admin,
          combinedTicker: 'BHP:ASX',
          includeDeleted: true,
          limit: ANNOUNCEMENT_PAGE_SIZE,
        },
        timeoutMs: 1500,
      },
    ]);
  });

  it('leaves the announcements null and names the service when it does not answer in time', async () => {
    const { composer: c } = composer(async () => {
      throw new AppError(
        ErrorCode.ServiceUnavailable,
        'The announcements service is not available right now',
      );
    });
    await expect(c.announcementsOf(admin, 'BHP:ASX')).resolves.toEqual({
      announcements: null,
      announcementsNext: null,
      initialPoll: null,
      unavailable: ['announcements'],
    });
  });

  it('never rejects, whatever the service answers, so the page never fails for it', async () => {
    for (const failure of [
      new AppError(ErrorCode.NotFound, 'Stock BHP:ASX not found'),
      new AppError(ErrorCode.Internal, 'boom'),
      new Error('socket closed'),
    ]) {
      const { composer: c } = composer(() => Promise.reject(failure));
      await expect(c.announcementsOf(admin, 'BHP:ASX')).resolves.toMatchObject({
        unavailable: ['announcements'],
      });
    }
  });

  it("tells the stock's latest initial poll for completedInitialPoll: its status, none, or unknown", async () => {
    expect(latestInitialPollOf(await composer(async () => list).composer.announcementsOf(admin, 'BHP'))).toBe(
      'running',
    );
    const none = await composer(async () => ({ ...list, initialPoll: null })).composer.announcementsOf(
      admin,
      'BHP',
    );
    expect(latestInitialPollOf(none)).toBe('none');
    const down = await composer(() => Promise.reject(new Error('down'))).composer.announcementsOf(
      admin,
      'BHP',
    );
    expect(latestInitialPollOf(down)).toBe('unknown');
  });
});

describe('StockPageComposer contributors', () => {
  const quote = {
    ask: 1.25,
    bid: 1.2,
    last: 1.22,
    movement: 0.02,
    movementPercent: 1.67,
    open: 1.2,
    high: 1.26,
    low: 1.19,
    volume: 1000,
    sharesOnIssue: 5_000_000,
    marketCap: 6_100_000,
    updated: '2026-11-27T06:10:00.000Z',
  };
  const contributor = (contribute: StockPageContributor['contribute']): StockPageContributor => ({
    name: 'reports',
    empty: { currentMarketData: null },
    contribute,
  });
  const services = {} as ServicesClient;

  it("adds each contributor's part, asked with the short timeout", async () => {
    const asked: Array<[string, number]> = [];
    const c = new StockPageComposer(services, new AnnouncementDeliveries(services, CONFIG), CONFIG, [
      contributor(async (ticker, ms) => {
        asked.push([ticker, ms]);
        return { currentMarketData: quote };
      }),
    ]);
    await expect(c.contributionsOf('BHP:ASX')).resolves.toEqual({
      fields: { currentMarketData: quote },
      unavailable: [],
    });
    expect(asked).toEqual([['BHP:ASX', 1500]]);
  });

  it('a contributor that fails gives its empty part and is named unavailable; no contributors, no parts', async () => {
    const c = new StockPageComposer(services, new AnnouncementDeliveries(services, CONFIG), CONFIG, [
      contributor(async () => {
        throw new AppError(ErrorCode.ServiceUnavailable, 'no answer');
      }),
    ]);
    await expect(c.contributionsOf('BHP:ASX')).resolves.toEqual({
      fields: { currentMarketData: null },
      unavailable: ['reports'],
    });
    const none = new StockPageComposer(services, new AnnouncementDeliveries(services, CONFIG), CONFIG);
    await expect(none.contributionsOf('BHP:ASX')).resolves.toEqual({ fields: {}, unavailable: [] });
  });
});
