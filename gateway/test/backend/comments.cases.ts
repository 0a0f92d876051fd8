import { INestApplication } from '@nestjs/common';
import {
  AnnouncementChangeResponseSchema,
  COMMENT_TEXTS,
  CommentResponseSchema,
  CommentsResultSchema,
  Stock,
  StockRole,
  Topics,
  WidgetAnnouncementListSchema,
  WidgetCommentGroupsSchema,
  WidgetCommentListSchema,
} from '@irp/proto';
import { SinkMail, SmtpSink } from '@irp/platform/testing';
import { Client } from 'pg';
import { PDFDocument } from 'pdf-lib';
import request from 'supertest';
import {
  clientOf,
  connectTestDatabase,
  createStockAsAdmin,
  MailBackend,
  PUBLIC_BASE_URL,
  runId,
  seedTestUsers,
  Session,
  SharedBackend,
  signIn,
  startTestGateway,
  until,
} from '../gateway-harness';

const RUN = runId();
const PASSWORD = 'CommentTest!2026';
/** Valid posts one address may make per window here (the rate-limit test uses what is left). */
const PER_ADDRESS = 12;

async function pdf(text: string): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.addPage([300, 200]).drawText(text.slice(0, 40), { x: 20, y: 100, size: 12 });
  return Buffer.from(await doc.save());
}

/**
 * Announcement comments end to end (docs/api/announcements.md): the gateway in front of the real users,
 * stocks, announcements and email-marketing services (each its own process) on the real broker, database
 * and an SMTP server whose mails are parsed. Investors post through the widget API (bad input 400 with
 * nothing stored, the rate limit), moderators are mailed, the screen's flags show, moderators respond
 * (roles: signed out 401, other client 403), the commenter gets the public response in the stock's
 * template, and what anyone typed stays text from the widget to the pages and the mails.
 */
export function commentsCases(shared: SharedBackend) {
  describe('announcement comments through the gateway against the real services', () => {
    let backend: MailBackend;
    let gateway: INestApplication;
    let http: ReturnType<typeof request>;
    let sink: SmtpSink;
    let db: Client;
    const sessions: Record<string, Session> = {};
    let get: ReturnType<typeof clientOf>['get'];
    let post: ReturnType<typeof clientOf>['post'];
    let A: Stock; // moderator: ReplyToComment on A; editor: EditAnnouncements on A only
    let B: Stock; // other: ReplyToComment on B only
    let onA: { sendGuid: string; headline: string };
    let olderOnA: { sendGuid: string; headline: string };
    let onB: { sendGuid: string; headline: string };

    const widgetPost = (apiKey: string, body: object, address = '198.51.100.7') =>
      http
        .post(`/api/widget/comments?apiKey=${encodeURIComponent(apiKey)}`)
        .set('X-Forwarded-For', address)
        .send(body);
    const widgetGet = (path: string, apiKey: string) =>
      http.get(`/api/widget/${path}${path.includes('?') ? '&' : '?'}apiKey=${encodeURIComponent(apiKey)}`);
    const commentRows = async () =>
      (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM announcements.comments`)).rows[0].n;
    /**
     * The comment.responded events the announcements service wrote for a comment: its outbox rows, written
     * in the transaction that saves the response and committed before the reply. They are the only way a
     * response mail comes about, so no new row after a request means no mail from it, ever.
     */
    const respondedEvents = async (guid: string) =>
      (
        await db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM announcements.outbox WHERE topic = $1 AND payload->>'guid' = $2`,
          [Topics.CommentResponded, guid],
        )
      ).rows[0].n;
    const mailsTo = (address: string, subjectPart: string) =>
      sink.to(address).filter((m: SinkMail) => m.subject.includes(subjectPart));
    const groupsOf = async (stock: Stock, who = 'admin', announcementGuid = '') =>
      CommentsResultSchema.parse(
        (
          await get(
            `/api/AnnouncementComments/?combinedTicker=${stock.combinedTicker}&announcementGuid=${announcementGuid}`,
            who,
          )
        ).body,
      );
    const responsePage = async (guid: string, who = 'moderator') => {
      const res = await get(`/api/AnnouncementCommentResponse/${guid}`, who);
      expect(res.status).toBe(200);
      return CommentResponseSchema.parse(res.body);
    };
    const staffNumComments = async (stock: Stock, sendGuid: string) => {
      const res = await get(`/api/Announcement/list/${stock.combinedTicker}`, 'admin');
      return (res.body.announcements as Array<{ sendGuid: string; numComments: number }>).find(
        (a) => a.sendGuid === sendGuid,
      )!.numComments;
    };
    const widgetNumComments = async (stock: Stock, sendGuid: string) =>
      WidgetAnnouncementListSchema.parse(
        (await widgetGet('announcements', stock.apiKey!)).body,
      ).announcements.find((a) => a.sendGuid === sendGuid)!.numComments;

    /** A comment posted through the widget that the moderators' mail announced; its guid. */
    async function postComment(
      fields: { name?: string; email?: string; comment: string },
      sendGuid = onA.sendGuid,
    ) {
      const res = await widgetPost(A.apiKey!, {
        sendGuid,
        name: fields.name ?? 'Pat Investor',
        email: fields.email ?? 'pat@investor.example',
        comment: fields.comment,
      });
      expect({ status: res.status, body: res.body }).toMatchObject({
        status: 201,
        body: { success: true, message: COMMENT_TEXTS.received },
      });
      return res.body.guid as string;
    }

    beforeAll(async () => {
      backend = shared.backend();
      ({ sink } = backend);
      db = await connectTestDatabase();
      ({ gateway, http } = await startTestGateway({
        COMMENT_RATE_PER_ADDRESS: String(PER_ADDRESS),
        COMMENT_RATE_PER_KEY: '1000',
        COMMENT_RATE_WINDOW_MS: '3600000',
      }));
      ({ get, post } = clientOf(http, sessions));
      sessions.admin = await signIn(http, 'admin', 'Admin!2026');

      const create = (fields: Record<string, unknown>) => createStockAsAdmin(post, fields);
      const newApiKey = async () => (await get('/api/admin/apiKey', 'admin')).body.apiKey as string;
      A = await create({
        ticker: `CA${RUN}`.slice(0, 8),
        companyName: 'Alpha Comments',
        apiKey: await newApiKey(),
        moderatorEmail: 'mod@alpha.example; lead@alpha.example',
        announcementCommentTemplate: 'Dear {name},\n\nThank you for asking about "{headline}".\n\nAlpha IR',
      });
      B = await create({
        ticker: `CB${RUN}`.slice(0, 8),
        companyName: 'Beta Comments',
        apiKey: await newApiKey(),
        moderatorEmail: 'mod@beta.example',
      });
      await seedTestUsers(PASSWORD, [
        { username: 'cm-test-moderator', stockRoles: { [A.id]: [StockRole.ReplyToComment] } },
        { username: 'cm-test-editor', stockRoles: { [A.id]: [StockRole.EditAnnouncements] } },
        { username: 'cm-test-other', stockRoles: { [B.id]: [StockRole.ReplyToComment] } },
      ]);
      for (const who of ['moderator', 'editor', 'other'])
        sessions[who] = await signIn(http, `cm-test-${who}`, PASSWORD);

      const save = async (stock: Stock, headline: string, date: string) => {
        const res = await until(
          async () => {
            let r = http
              .post(`/api/Announcement/save/${stock.combinedTicker}`)
              .set('Cookie', sessions.admin.cookie)
              .set('X-XSRF-TOKEN', sessions.admin.csrf);
            for (const [k, v] of Object.entries({ headline, date, priceSensitive: 'false' }))
              r = r.field(k, v);
            return r.attach('file', await pdf(headline), {
              filename: 'a.pdf',
              contentType: 'application/pdf',
            });
          },
          (r) => r.status === 200,
          `announcements knowing ${stock.ticker}`,
        );
        return AnnouncementChangeResponseSchema.parse(res.body).announcement;
      };
      onA = await save(A, 'Half Year Results Presentation', '20 Feb 2026 9:30 AM');
      olderOnA = await save(A, 'Quarterly Activities Report', '22 Jan 2026 8:50 AM');
      onB = await save(B, 'Beta Investor Update', '18 Feb 2026 10:00 AM');
    }, 180_000);

    afterAll(async () => {
      await gateway?.close();
      await db?.end();
    });

    it('a plain question is stored unpublished, counted, and mailed to every moderator with the response link', async () => {
      const guid = await postComment({
        name: 'Pat Investor',
        comment: 'Could you explain the increase in exploration spend shown in the presentation?',
      });
      for (const moderator of ['mod@alpha.example', 'lead@alpha.example']) {
        const [mail] = await sink
          .waitFor(() => mailsTo(moderator, onA.headline).length === 1, `moderation mail to ${moderator}`)
          .then(() => mailsTo(moderator, onA.headline));
        expect(mail.subject).toBe(`New comment on Alpha Comments (${A.ticker}): ${onA.headline}`);
        expect(mail.text).toContain('Could you explain the increase in exploration spend');
        expect(mail.text).toContain(`${PUBLIC_BASE_URL}/AnnouncementCommentResponse/${guid}`);
        expect(mail.html).toContain(`href="${PUBLIC_BASE_URL}/AnnouncementCommentResponse/${guid}"`);
      }
      expect(sink.to('mod@beta.example')).toHaveLength(0);

      const page = await responsePage(guid);
      expect(page).toMatchObject({
        guid,
        combinedTicker: A.combinedTicker,
        sendGuid: onA.sendGuid,
        announcementHeadline: onA.headline,
        isPublic: false,
        request: { name: 'Pat Investor', email: 'pat@investor.example' },
        response: null,
        flags: [],
      });
      expect(await staffNumComments(A, onA.sendGuid)).toBe(1);
      // Not public until a moderator makes it so: the widget shows nothing and counts nothing.
      expect(await widgetNumComments(A, onA.sendGuid)).toBe(0);
      const listing = WidgetCommentListSchema.parse(
        (await widgetGet(`comments?sendGuid=${onA.sendGuid}`, A.apiKey!)).body,
      );
      expect(listing.comments).toEqual([]);
    });

    it('a question asking for undisclosed information or naming another listed company is flagged, with reasons on the pages and in the mail', async () => {
      const guid = await postComment({
        name: 'Sam Trader',
        comment:
          'Will the full year results beat guidance before they are announced? I also heard BHP Group is preparing a takeover bid.',
      });
      const page = await responsePage(guid);
      const categories = page.flags.map((f) => f.category);
      expect(categories).toContain('disclosure');
      expect(categories).toContain('listed-company');
      expect(page.flags.find((f) => f.category === 'listed-company')!.reason).toContain('BHP');

      const groups = await groupsOf(A, 'moderator');
      const item = groups.commentGroups
        .flatMap((g) => g.comments)
        .find((c) => c.announcementCommentEventGuid === guid)!;
      expect(item.flags).toEqual(page.flags);

      await sink.waitFor(
        () => mailsTo('mod@alpha.example', '[Flagged]').length === 1,
        'flagged moderation mail',
      );
      const [mail] = mailsTo('mod@alpha.example', '[Flagged]');
      expect(mail.text).toContain('Flagged for review:');
      for (const flag of page.flags) expect(mail.text).toContain(flag.reason);
    });

    it('contact details and links are flagged too; a question about released figures is not', async () => {
      const contact = await postComment({
        comment: 'Please call me on 0412 345 678 or see www.example.com.au',
      });
      expect((await responsePage(contact)).flags.map((f) => f.category)).toEqual(
        expect.arrayContaining(['contact-details']),
      );
      const plain = await postComment({
        comment: 'What does the AGM vote on the remuneration report mean for holders?',
      });
      expect((await responsePage(plain)).flags).toEqual([]);
    });

    describe('bad widget input is answered 400 (404 for an announcement not of the key) and stores nothing', () => {
      const cases: Array<[string, () => object, number, string]> = [
        [
          'missing name',
          () => ({ sendGuid: onA.sendGuid, email: 'a@b.example', comment: 'Hi' }),
          400,
          'Name is required',
        ],
        [
          'blank name',
          () => ({ sendGuid: onA.sendGuid, name: '   ', email: 'a@b.example', comment: 'Hi' }),
          400,
          'Name is required',
        ],
        [
          'missing email',
          () => ({ sendGuid: onA.sendGuid, name: 'A', comment: 'Hi' }),
          400,
          'Email is required',
        ],
        [
          'bad email',
          () => ({ sendGuid: onA.sendGuid, name: 'A', email: 'not-an-address', comment: 'Hi' }),
          400,
          'Email must be an email address',
        ],
        [
          'missing comment',
          () => ({ sendGuid: onA.sendGuid, name: 'A', email: 'a@b.example' }),
          400,
          'Comment is required',
        ],
        [
          '10 kB comment',
          () => ({ sendGuid: onA.sendGuid, name: 'A', email: 'a@b.example', comment: 'x'.repeat(10_240) }),
          400,
          'Comment must be at most 2000 characters',
        ],
        [
          'a script',
          () => ({
            sendGuid: onA.sendGuid,
            name: 'A',
            email: 'a@b.example',
            comment: 'Nice <script>alert(1)</script>',
          }),
          400,
          COMMENT_TEXTS.plainTextOnly,
        ],
        [
          'HTML markup',
          () => ({
            sendGuid: onA.sendGuid,
            name: 'A',
            email: 'a@b.example',
            comment: '<b>Bold</b> question <img src=x onerror=alert(1)>',
          }),
          400,
          COMMENT_TEXTS.plainTextOnly,
        ],
        [
          'HTML in the name',
          () => ({ sendGuid: onA.sendGuid, name: '<i>A</i>', email: 'a@b.example', comment: 'Hi' }),
          400,
          COMMENT_TEXTS.plainTextOnly,
        ],
        [
          'no sendGuid',
          () => ({ name: 'A', email: 'a@b.example', comment: 'Hi' }),
          400,
          'sendGuid is required',
        ],
        [
          "another stock's announcement",
          () => ({ sendGuid: onB.sendGuid, name: 'A', email: 'a@b.example', comment: 'Hi' }),
          404,
          'not found',
        ],
      ];
      it.each(cases.map((c) => [c[0], c] as const))('%s', async (_name, [, body, status, message]) => {
        const before = await commentRows();
        const res = await widgetPost(A.apiKey!, body(), '192.0.2.50');
        expect(res.status).toBe(status);
        expect(res.body.errorMessage).toContain(message);
        expect(res.headers['access-control-allow-origin']).toBe('*');
        expect(await commentRows()).toBe(before);
      });

      it('a wrong API key is 401', async () => {
        const before = await commentRows();
        const res = await widgetPost('no-such-key', {
          sendGuid: onA.sendGuid,
          name: 'A',
          email: 'a@b.example',
          comment: 'Hi',
        });
        expect(res.status).toBe(401);
        expect(await commentRows()).toBe(before);
      });
    });

    describe('roles: admins and ReplyToComment on the stock; signed out 401, anyone else 403', () => {
      let guid: string;
      beforeAll(async () => {
        guid = await postComment({ comment: 'When will the annual report be mailed to shareholders?' });
      });

      it.each([
        ['signed out', undefined, 401],
        ["another stock's moderator", 'other', 403],
        ['an announcement editor of the stock', 'editor', 403],
        ['the moderator', 'moderator', 200],
        ['an admin', 'admin', 200],
      ])('GET comment groups and the response page: %s', async (_n, who, status) => {
        expect((await get(`/api/AnnouncementComments/?combinedTicker=${A.combinedTicker}`, who)).status).toBe(
          status,
        );
        expect((await get(`/api/AnnouncementCommentResponse/${guid}`, who)).status).toBe(status);
      });

      it.each([
        ['signed out', undefined, 401],
        ["another stock's moderator", 'other', 403],
        ['an announcement editor of the stock', 'editor', 403],
      ])('POST a response: %s is refused and nothing changes', async (_n, who, status) => {
        const before = await responsePage(guid);
        const events = await respondedEvents(guid);
        const mails = sink.mails.length;
        const res = await post(
          `/api/AnnouncementCommentResponse/${guid}`,
          { guid, comment: 'Hijacked', isPublic: true },
          who,
        );
        expect(res.status).toBe(status);
        expect(await responsePage(guid)).toEqual(before);
        expect(await respondedEvents(guid)).toBe(events);
        expect(sink.mails.length).toBe(mails);
      });

      it("the other stock's moderator reads only their own groups", async () => {
        expect((await groupsOf(B, 'other')).commentGroups).toEqual([]);
      });

      it('a body naming another comment, or not saying isPublic, is 400', async () => {
        const other = '00000000-0000-4000-8000-000000000000';
        expect(
          (
            await post(
              `/api/AnnouncementCommentResponse/${guid}`,
              { guid: other, comment: 'x', isPublic: false },
              'moderator',
            )
          ).status,
        ).toBe(400);
        const res = await post(
          `/api/AnnouncementCommentResponse/${guid}`,
          { guid, comment: 'x' },
          'moderator',
        );
        expect(res.status).toBe(400);
        expect(res.body.errorMessage).toContain('isPublic');
        expect((await get(`/api/AnnouncementCommentResponse/${other}`, 'admin')).status).toBe(404);
      });
    });

    it('moderation: a flagged comment needs a response to go public; a public response reaches the widget and the commenter, as text', async () => {
      const guid = await postComment({
        name: "Lee O'Brien & Co",
        email: 'lee@holder.example',
        comment: 'Is there any news coming about a capital raising? Revenue 1 < 2 & "margins" > \'costs\'?',
      });
      const flagged = await responsePage(guid);
      expect(flagged.flags.length).toBeGreaterThan(0);
      expect(flagged.request.name).toBe("Lee O'Brien & Co");
      const refused = await post(
        `/api/AnnouncementCommentResponse/${guid}`,
        { guid, comment: '  ', isPublic: true },
        'moderator',
      );
      expect(refused.status).toBe(400);
      expect(refused.body.errorMessage).toBe(COMMENT_TEXTS.flaggedNeedsResponse);
      expect((await responsePage(guid)).isPublic).toBe(false);

      const answer = 'We have nothing to add to our announcements. <script>alert("x")</script> stays text.';
      const saved = await post(
        `/api/AnnouncementCommentResponse/${guid}`,
        { guid, comment: answer, isPublic: true },
        'moderator',
      );
      expect(saved.status).toBe(200);
      expect(saved.body).toMatchObject({
        success: true,
        errorMessage: null,
        comment: { isPublic: true, response: { comment: answer } },
      });

      // The commenter's mail: the stock's template filled and the response, escaped; never the question (the
      // address was never confirmed: someone else's address must not receive text the poster chose).
      expect(await respondedEvents(guid)).toBe(1);
      await sink.waitFor(() => sink.to('lee@holder.example').length === 1, 'the response mail');
      const [mail] = sink.to('lee@holder.example');
      expect(mail.subject).toBe(`Alpha Comments responded to your comment on ${onA.headline}`);
      expect(mail.text).toContain(`Thank you for asking about "${onA.headline}"`);
      expect(mail.text).toContain(answer);
      expect(mail.text).not.toContain('capital raising');
      expect(mail.html).not.toContain('capital raising');
      expect(mail.html).not.toContain('<script');
      expect(mail.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');

      // The widget lists it with its response, byte for byte as typed, as JSON (never HTML).
      const listing = await widgetGet(`comments?sendGuid=${onA.sendGuid}`, A.apiKey!);
      expect(listing.headers['content-type']).toMatch(/^application\/json/);
      const group = WidgetCommentListSchema.parse(listing.body);
      const shown = group.comments.find((c) => c.guid === guid)!;
      expect(shown.comment).toBe(flagged.request.comment);
      expect(shown.responses).toEqual([{ comment: answer, date: expect.any(String) }]);
      expect(JSON.stringify(listing.body)).not.toContain('lee@holder.example');
      expect(await widgetNumComments(A, onA.sendGuid)).toBe(1);
      const widgetGroups = WidgetCommentGroupsSchema.parse(
        (await widgetGet('comment-groups', A.apiKey!)).body,
      );
      expect(widgetGroups.commentGroups.map((g) => g.sendGuid)).toEqual([onA.sendGuid]);

      // Reopening: prefilled; saving the same text again mails nobody; new text mails the new version.
      const reopened = await responsePage(guid);
      expect(reopened.response).toEqual({ comment: answer, date: expect.any(String) });
      await post(
        `/api/AnnouncementCommentResponse/${guid}`,
        { guid, comment: answer, isPublic: true },
        'moderator',
      );
      expect(await respondedEvents(guid)).toBe(1);
      expect(sink.to('lee@holder.example')).toHaveLength(1);
      expect((await responsePage(guid)).response!.date).toBe(reopened.response!.date);
      await post(
        `/api/AnnouncementCommentResponse/${guid}`,
        { guid, comment: `${answer} Updated.`, isPublic: true },
        'admin',
      );
      expect(await respondedEvents(guid)).toBe(2);
      await sink.waitFor(() => sink.to('lee@holder.example').length === 2, 'the edited response mail');
      expect(sink.to('lee@holder.example')[1].text).toContain(`${answer} Updated.`);

      // Toggled to 'No': out of public view, nobody mailed.
      await post(
        `/api/AnnouncementCommentResponse/${guid}`,
        { guid, comment: `${answer} Updated.`, isPublic: false },
        'moderator',
      );
      expect(
        WidgetCommentListSchema.parse((await widgetGet(`comments?sendGuid=${onA.sendGuid}`, A.apiKey!)).body)
          .comments,
      ).toEqual([]);
      expect(await widgetNumComments(A, onA.sendGuid)).toBe(0);
      // Still the two events, and both of their mails have arrived: no further mail can come.
      expect(await respondedEvents(guid)).toBe(2);
      expect(sink.to('lee@holder.example')).toHaveLength(2);
    });

    it('comment groups: per announcement, newest first, narrowed by announcementGuid with the ticker total', async () => {
      const older = await postComment(
        { comment: 'Which drill holes are in the quarterly?' },
        olderOnA.sendGuid,
      );
      const all = await groupsOf(A, 'moderator');
      expect(all.combinedTicker).toBe(A.combinedTicker);
      expect(all.totalCommentGroups).toBe(2);
      expect(all.commentGroups.map((g) => g.sendGuid)).toEqual([onA.sendGuid, olderOnA.sendGuid]);
      expect(all.commentGroups[1]).toMatchObject({
        announcementHeadline: olderOnA.headline,
        comments: [{ announcementCommentEventGuid: older, name: 'Pat Investor', responses: [] }],
      });
      const narrowed = await groupsOf(A, 'moderator', olderOnA.sendGuid);
      expect(narrowed.totalCommentGroups).toBe(2);
      expect(narrowed.commentGroups.map((g) => g.sendGuid)).toEqual([olderOnA.sendGuid]);
      expect(await staffNumComments(A, olderOnA.sendGuid)).toBe(1);
    });

    it('the rate limit: past COMMENT_RATE_PER_ADDRESS posts an address gets 429 with Retry-After and nothing stored, whichever gateway instance it asks; another address goes on', async () => {
      // A second gateway instance: the count is shared (PostgreSQL), not one budget per instance.
      const second = await startTestGateway({
        COMMENT_RATE_PER_ADDRESS: String(PER_ADDRESS),
        COMMENT_RATE_PER_KEY: '1000',
        COMMENT_RATE_WINDOW_MS: '3600000',
      });
      try {
        // The address is the same every run: an earlier run's count (same database) is dropped.
        await db.query('DELETE FROM gateway.rate_limits');
        const address = '203.0.113.9';
        const body = { sendGuid: onA.sendGuid, name: 'Flood', email: 'flood@example.com', comment: 'Again?' };
        const postTo = (to: ReturnType<typeof request>, from: string) =>
          to
            .post(`/api/widget/comments?apiKey=${encodeURIComponent(A.apiKey!)}`)
            .set('X-Forwarded-For', from)
            .send(body);
        for (let i = 0; i < PER_ADDRESS; i++)
          expect((await postTo(i % 2 ? second.http : http, address)).status).toBe(201);
        const before = await commentRows();
        for (const to of [http, second.http]) {
          const refused = await postTo(to, address);
          expect(refused.status).toBe(429);
          expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
          expect(refused.body.errorMessage).toMatch(/^Too many comments/);
        }
        expect(await commentRows()).toBe(before);
        expect((await postTo(second.http, '203.0.113.10')).status).toBe(201);
      } finally {
        await second.gateway.close();
      }
    });
  });
}
