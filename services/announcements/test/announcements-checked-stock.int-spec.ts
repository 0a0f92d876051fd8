import { StockRole, Topics } from '@irp/proto';
import { actor } from '@irp/proto/testing';
import { createTestRequester } from '@irp/platform/testing';
import type { KafkaRequester } from '@irp/platform';
import { expectRefusal } from './announcements-fixtures';
import { AnnouncementsHarness, abc, vod } from './announcements-harness';

/**
 * Reads re-check the stock: the gateway checks a client's role on the stock its (cached) ticker lookup or
 * comment lookup named and hands that stock over; the service reads only records of it. A client with the
 * role on ABC whose lookup went stale (ABC's old ticker now another stock's) reads nothing of VOD.
 */
describe("announcements service: reads of the stock whose role was checked, never another's", () => {
  const h = new AnnouncementsHarness();
  // Roles on both stocks (the service's own role check passes): only the checked stock decides here.
  const client = actor({
    username: 'checked-stock-client',
    stockRoles: Object.fromEntries(
      [abc.id, vod.id].map((id) => [id, [StockRole.EditAnnouncements, StockRole.ReplyToComment]]),
    ),
  });
  let comments: KafkaRequester;
  let vodComment: string;

  beforeAll(async () => {
    await h.start();
    comments = await createTestRequester(
      [Topics.CommentsPost, Topics.CommentsGet, Topics.CommentsGroups],
      10_000,
    );
    const news = await h.save('VOD:LSE', {
      headline: 'Trading Update',
      remotePath: 'https://lse.example/vod/1',
    });
    ({ guid: vodComment } = await comments.request(Topics.CommentsPost, {
      stockId: vod.id,
      sendGuid: news.sendGuid,
      name: 'Ivy Investor',
      email: 'ivy@investors.example',
      comment: 'When is the next trading update due?',
    }));
  });

  afterAll(async () => {
    await comments?.close();
    await h.stop();
  });

  it("refuses VOD's announcement list to a request checked on ABC, and lists it when checked on VOD", async () => {
    await expectRefusal(
      h.requester.request(Topics.AnnouncementsList, {
        actor: client,
        combinedTicker: 'VOD:LSE',
        checkedStockId: abc.id,
      }),
      'NOT_FOUND',
      'Stock VOD:LSE not found',
    );
    const own = await h.requester.request(Topics.AnnouncementsList, {
      actor: client,
      combinedTicker: 'VOD:LSE',
      checkedStockId: vod.id,
    });
    expect(own.announcements.map((a) => a.headline)).toEqual(['Trading Update']);
  });

  it("refuses VOD's comment by its guid, and its comment groups, to a request checked on ABC", async () => {
    await expectRefusal(
      comments.request(Topics.CommentsGet, { guid: vodComment, checkedStockId: abc.id }),
      'NOT_FOUND',
      'Comment not found',
    );
    await expectRefusal(
      comments.request(Topics.CommentsGroups, {
        actor: client,
        combinedTicker: 'VOD:LSE',
        checkedStockId: abc.id,
      }),
      'NOT_FOUND',
      'Stock VOD:LSE not found',
    );
    const own = await comments.request(Topics.CommentsGet, { guid: vodComment, checkedStockId: vod.id });
    expect(own.comment.request.comment).toBe('When is the next trading update due?');
    const groups = await comments.request(Topics.CommentsGroups, {
      actor: client,
      combinedTicker: 'VOD:LSE',
      checkedStockId: vod.id,
    });
    expect(
      groups.commentGroups.flatMap((g) => g.comments.map((c) => c.announcementCommentEventGuid)),
    ).toEqual([vodComment]);
  });

  it('re-checks the signed actor itself: comment groups need ReplyToComment on that stock (issue 18)', async () => {
    // The gateway checked the stock, but the actor holds only EditAnnouncements there, and ReplyToComment on
    // another stock: the service refuses rather than trust the gateway's check alone.
    const editorOnly = actor({
      username: 'editor-only',
      stockRoles: { [vod.id]: [StockRole.EditAnnouncements], [abc.id]: [StockRole.ReplyToComment] },
    });
    await expectRefusal(
      comments.request(Topics.CommentsGroups, {
        actor: editorOnly,
        combinedTicker: 'VOD:LSE',
        checkedStockId: vod.id,
      }),
      'FORBIDDEN',
      'You may not respond to the comments of VOD:LSE',
    );
  });
});
