import { AnnouncementMessages, StoredAnnouncement, Topics } from '@irp/proto';
import { KafkaRequester } from '@irp/platform';
import { TopicProbe, untilOutboxPublished, untilProbeAtEnd } from '@irp/platform/testing';
import { DataSource } from 'typeorm';
import { SentBecomesSendRequested1795700000000 } from '../src/database/migrations/1795700000000-SentBecomesSendRequested';
import { ADMIN, expectRefusal, makePdf, refusalOf, uploadFile } from './announcements-fixtures';
import { AnnouncementsHarness, abc, editor, outsider, sender } from './announcements-harness';

/**
 * Manual and confirmation sends through the outbox. Who was mailed is the email-marketing service's
 * (docs/adr/0013): its `announcement.delivered` changes nothing here.
 */
describe('announcements service: sends', () => {
  const h = new AnnouncementsHarness();
  let requester: KafkaRequester;
  let probe: TopicProbe;
  let db: DataSource;
  let sendRequestsAtJoin: Map<number, bigint>;
  const { save, send, row, count, outboxCount, eventsFor, eventFor } = h;

  // The harness saves price-sensitive announcements: their send requests go on the priority topic
  // (docs/adr/0018).
  const SEND_REQUESTED = Topics.AnnouncementPrioritySendRequested;

  let quarterly: StoredAnnouncement;
  let older: StoredAnnouncement;

  beforeAll(async () => {
    await h.start();
    ({ requester, probe, db, sendRequestsAtJoin } = h);
    ({ announcement: quarterly } = await h.addQuarterly());
    older = await h.addDeletedOlder();
  });

  afterAll(() => h.stop());

  // -------------------------------------------------------------------------------------------------
  // Send

  it("requests a send on the stock's channels through the outbox, once without override", async () => {
    await expectRefusal(
      send(quarterly, 'ABC', false, editor),
      'FORBIDDEN',
      'You may not send the announcements of ABC',
    );
    expect((await row(quarterly.sendGuid)).send_requested_at).toBeNull();

    const since = probe.received.length;
    const sent = await send(quarterly, 'ABC');
    expect(sent.sendRequestedAt).not.toBeNull();
    const event = await eventFor(SEND_REQUESTED, quarterly.sendGuid, since);
    expect(event.key).toBe(abc.id);
    expect(event.value).toMatchObject({
      stockId: abc.id,
      combinedTicker: 'ABC:ASX',
      channels: ['email'],
      override: false,
      auto: false,
      requestedBy: 'sam',
      requestedAt: sent.sendRequestedAt,
      announcement: { sendGuid: quarterly.sendGuid, sendRequestedAt: sent.sendRequestedAt },
    });

    const requestedAt = (await row(quarterly.sendGuid)).send_requested_at;
    await expectRefusal(send(quarterly, 'ABC'), 'CONFLICT', AnnouncementMessages.alreadySent);
    expect((await row(quarterly.sendGuid)).send_requested_at).toEqual(requestedAt);
    expect(await outboxCount(SEND_REQUESTED, quarterly.sendGuid)).toBe(1);

    const resent = await send(quarterly, 'ABC', true);
    const overridden = await eventFor(SEND_REQUESTED, quarterly.sendGuid, probe.received.indexOf(event) + 1);
    expect(overridden.value).toMatchObject({ override: true, requestedAt: resent.sendRequestedAt });
    expect(await outboxCount(SEND_REQUESTED, quarterly.sendGuid)).toBe(2);
  });

  it('publishes exactly one send when several arrive at once without override', async () => {
    const fresh = await save('ABC', {
      headline: 'Concurrent Send',
      upload: await uploadFile(requester, await makePdf('Concurrent Send')),
    });
    // Hold the row so the sends pile up behind it and then race: without the service's own row lock they
    // would all read "not sent" and each publish.
    const blocker = db.createQueryRunner();
    await blocker.startTransaction();
    let results: PromiseSettledResult<StoredAnnouncement>[];
    try {
      await blocker.query(`SELECT 1 FROM announcements.announcements WHERE send_guid = $1 FOR UPDATE`, [
        fresh.sendGuid,
      ]);
      const pending = Promise.allSettled(Array.from({ length: 5 }, () => send(fresh, 'ABC')));
      // Give the sends up to 5 s to queue on the row, then go on whether or not they all have: the check is what
      // happens after the commit, not how many waited (a bounded pause, never a failure, so not waitUntil,
      // which would wait until the test's own limit and leave the sends no time for their replies).
      const queued = Date.now() + 5000;
      while (
        Date.now() < queued &&
        (await count(`SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted`)) < 2
      )
        await new Promise((r) => setTimeout(r, 50));
      await blocker.commitTransaction();
      results = await pending;
    } finally {
      if (blocker.isTransactionActive) await blocker.rollbackTransaction();
      await blocker.release();
    }
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const refusals = await Promise.all(
      results
        .filter((r) => r.status === 'rejected')
        .map((r) => refusalOf(Promise.reject((r as PromiseRejectedResult).reason))),
    );
    expect(refusals.map((e) => e.code)).toEqual(['CONFLICT', 'CONFLICT', 'CONFLICT', 'CONFLICT']);
    // Every send has returned, so the outbox (what the relay publishes from) holds every request they wrote:
    // one, and once it is published the probe has read the topic as far as it could be.
    expect(await outboxCount(SEND_REQUESTED, fresh.sendGuid)).toBe(1);
    await eventFor(SEND_REQUESTED, fresh.sendGuid);
    await untilOutboxPublished('announcements', SEND_REQUESTED);
    await untilProbeAtEnd(probe, SEND_REQUESTED, sendRequestsAtJoin);
    expect(eventsFor(SEND_REQUESTED, fresh.sendGuid)).toHaveLength(1);
  });

  it('refuses to send a deleted announcement or one no channel can carry', async () => {
    await expectRefusal(send(older, 'ABC', true), 'BAD_REQUEST', 'A deleted announcement cannot be sent');
    expect((await row(older.sendGuid)).send_requested_at).toBeNull();

    const vodNews = await save('VOD:LSE', {
      headline: 'No Channel',
      remotePath: 'https://lse.example/vod/2',
    });
    await expectRefusal(
      send(vodNews, 'VOD:LSE', false, ADMIN),
      'BAD_REQUEST',
      'No sending channel is switched on for VOD:LSE: turn on Email or email marketing sending on the Config tab',
    );
    expect((await row(vodNews.sendGuid)).send_requested_at).toBeNull();
    expect(await outboxCount(SEND_REQUESTED, vodNews.sendGuid)).toBe(0);
  });

  it("falls back to any channel the stock switched on when none is chosen for the announcement's kind", async () => {
    const mktNews = await save(
      'MKT',
      {
        headline: 'Price Sensitive',
        priceSensitive: true,
        upload: await uploadFile(requester, await makePdf('MKT')),
      },
      outsider,
    );
    await send(mktNews, 'MKT', false, outsider);
    // A price-sensitive announcement's request goes on its own topic (docs/adr/0018).
    expect(await outboxCount(Topics.AnnouncementSendRequested, mktNews.sendGuid)).toBe(0);
    const event = await eventFor(Topics.AnnouncementPrioritySendRequested, mktNews.sendGuid);
    expect(event.value).toMatchObject({ channels: ['email-marketing'], combinedTicker: 'MKT:ASX' });
  });

  it("sends a confirmation email to the stock's confirmation emails, admins only", async () => {
    await expectRefusal(
      requester.request(Topics.AnnouncementsSendConfirmation, {
        actor: sender,
        combinedTicker: 'ABC',
        sendGuid: quarterly.sendGuid,
      }),
      'FORBIDDEN',
      'Only admins may send a confirmation email',
    );
    expect(await outboxCount(Topics.AnnouncementConfirmationRequested, quarterly.sendGuid)).toBe(0);

    const reply = await requester.request(Topics.AnnouncementsSendConfirmation, {
      actor: ADMIN,
      combinedTicker: 'ABC',
      sendGuid: quarterly.sendGuid,
    });
    expect(reply.recipients).toEqual(['ir@abc.example', 'board@abc.example', 'ceo@abc.example']);
    expect(reply.announcement.sendGuid).toBe(quarterly.sendGuid);
    const event = await eventFor(Topics.AnnouncementConfirmationRequested, quarterly.sendGuid);
    expect(event.key).toBe(abc.id);
    expect(event.value).toMatchObject({
      stockId: abc.id,
      combinedTicker: 'ABC:ASX',
      recipients: ['ir@abc.example', 'board@abc.example', 'ceo@abc.example'],
      requestedBy: 'alice',
    });

    const vodNews = await save('VOD:LSE', {
      headline: 'No Confirmation',
      remotePath: 'https://lse.example/vod/3',
    });
    await expectRefusal(
      requester.request(Topics.AnnouncementsSendConfirmation, {
        actor: ADMIN,
        combinedTicker: 'VOD:LSE',
        sendGuid: vodNews.sendGuid,
      }),
      'BAD_REQUEST',
      'No confirmation emails are set for VOD:LSE (Config tab)',
    );
    expect(await outboxCount(Topics.AnnouncementConfirmationRequested, vodNews.sendGuid)).toBe(0);
  });

  it('still needs the override for an announcement marked sent before sends were requested', async () => {
    const early = await save('ABC', {
      headline: 'Sent Before Requests',
      upload: await uploadFile(requester, await makePdf('Sent Before Requests')),
    });
    // As the last release left a row that announcement.delivered marked sent with no request recorded.
    await db.query(
      `UPDATE announcements.announcements
          SET sent = true, send_requested_at = NULL, updated_at = '2024-05-01T00:00:00Z' WHERE send_guid = $1`,
      [early.sendGuid],
    );
    const runner = db.createQueryRunner();
    try {
      await new SentBecomesSendRequested1795700000000().up(runner);
    } finally {
      await runner.release();
    }
    expect((await row(early.sendGuid)).send_requested_at).toEqual(new Date('2024-05-01T00:00:00Z'));

    await expectRefusal(send(early, 'ABC'), 'CONFLICT', AnnouncementMessages.alreadySent);
    expect(await outboxCount(SEND_REQUESTED, early.sendGuid)).toBe(0);
    const resent = await send(early, 'ABC', true);
    expect(Date.parse(resent.sendRequestedAt!)).toBeGreaterThan(Date.parse('2024-05-01T00:00:00Z'));
    expect(await outboxCount(SEND_REQUESTED, early.sendGuid)).toBe(1);
  });
});
