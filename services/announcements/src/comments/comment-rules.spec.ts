import { COMMENT_TEXTS, StockRole } from '@irp/proto';
import { actor } from '@irp/proto/testing';
import { applyResponse, checkCommentInput, requireReplyToComment, StoredResponse } from './comment-rules';

const NOW = new Date('2026-03-02T01:00:00Z');
const EARLIER = new Date('2026-03-01T01:00:00Z');
const flag = { rule: 'results-before-release', category: 'disclosure' as const, reason: 'r', match: 'm' };
const fresh = (over: Partial<StoredResponse> = {}): StoredResponse => ({
  flags: [],
  isPublic: false,
  response: null,
  respondedAt: null,
  responseVersion: 0,
  ...over,
});

describe('checkCommentInput', () => {
  const ok = { name: ' Pat ', email: ' pat@investor.example ', comment: ' Why?\nThanks ' };

  it('trims the fields and keeps the line breaks inside', () => {
    expect(checkCommentInput(ok)).toEqual({
      name: 'Pat',
      email: 'pat@investor.example',
      comment: 'Why?\nThanks',
    });
  });

  it.each([
    ['blank name', { ...ok, name: ' ' }, 'Name is required'],
    ['no email', { ...ok, email: '' }, 'Email is required'],
    ['blank comment', { ...ok, comment: '\n' }, 'Comment is required'],
    ['long name', { ...ok, name: 'n'.repeat(101) }, 'Name must be at most 100 characters'],
    ['email without domain', { ...ok, email: 'pat@' }, 'Email must be an email address'],
    ['email without TLD', { ...ok, email: 'pat@investor' }, 'Email must be an email address'],
    [
      '2,001-character comment',
      { ...ok, comment: 'c'.repeat(2001) },
      'Comment must be at most 2000 characters',
    ],
    ['script', { ...ok, comment: 'see <script>alert(1)</script>' }, COMMENT_TEXTS.plainTextOnly],
    ['link', { ...ok, comment: 'see <a href="x">this</a>' }, COMMENT_TEXTS.plainTextOnly],
    ['encoded script', { ...ok, comment: '&lt;script&gt;' }, COMMENT_TEXTS.plainTextOnly],
    ['javascript URL', { ...ok, comment: 'click javascript:alert(1)' }, COMMENT_TEXTS.plainTextOnly],
    ['markup in the name', { ...ok, name: '<b>Pat</b>' }, COMMENT_TEXTS.plainTextOnly],
  ])('refuses a %s', (_label, input, message) => {
    expect(() => checkCommentInput(input)).toThrow(message);
  });

  it.each(['Is 1 < 2 & 3 > 2?', 'Revenue <5% of plan', 'O\'Brien & Co "quoted"', 'a <= b, c >= d'])(
    'takes plain text with HTML-like characters: %s',
    (comment) => {
      expect(checkCommentInput({ ...ok, comment }).comment).toBe(comment);
    },
  );
});

describe('requireReplyToComment', () => {
  const stock = { id: '9b2f0c0e-1f53-4d3a-8a43-7f4a3f4d0a11', ticker: 'ABC', exchange: 'ASX' };
  const user = (roles: string[], stockRoles: Record<string, string[]>) =>
    actor({ username: 'u', roles, stockRoles });

  it('lets admins and holders of ReplyToComment on the stock respond', () => {
    expect(() => requireReplyToComment(user(['Admin'], {}), stock)).not.toThrow();
    expect(() =>
      requireReplyToComment(user([], { [stock.id]: [StockRole.ReplyToComment] }), stock),
    ).not.toThrow();
  });

  it('refuses other roles and other stocks with 403', () => {
    for (const u of [
      user([], { [stock.id]: [StockRole.EditAnnouncements] }),
      user([], { other: [StockRole.ReplyToComment] }),
    ])
      expect(() => requireReplyToComment(u, stock)).toThrow('You may not respond to the comments of ABC');
  });
});

describe('applyResponse', () => {
  it('a first public response is dated now, counted public and mailed as version 1', () => {
    expect(applyResponse(fresh(), { comment: ' Thanks for asking. ', isPublic: true }, NOW)).toEqual({
      isPublic: true,
      response: 'Thanks for asking.',
      respondedAt: NOW,
      responseVersion: 1,
      mailCommenter: true,
      publicDelta: 1,
    });
  });

  it('a private response is kept and dated but mails nobody', () => {
    expect(applyResponse(fresh(), { comment: 'Internal note', isPublic: false }, NOW)).toMatchObject({
      response: 'Internal note',
      respondedAt: NOW,
      mailCommenter: false,
      responseVersion: 0,
      publicDelta: 0,
    });
  });

  it('saving the same public response again keeps its date and mails nobody', () => {
    const stored = fresh({ isPublic: true, response: 'Done', respondedAt: EARLIER, responseVersion: 1 });
    expect(applyResponse(stored, { comment: 'Done', isPublic: true }, NOW)).toMatchObject({
      respondedAt: EARLIER,
      mailCommenter: false,
      responseVersion: 1,
      publicDelta: 0,
    });
  });

  it('edited public text is a new version, mailed again', () => {
    const stored = fresh({ isPublic: true, response: 'Done', respondedAt: EARLIER, responseVersion: 1 });
    expect(applyResponse(stored, { comment: 'Done, and more', isPublic: true }, NOW)).toMatchObject({
      respondedAt: NOW,
      mailCommenter: true,
      responseVersion: 2,
    });
  });

  it("making an existing private response public mails it; toggling to 'No' removes it from public view", () => {
    const stored = fresh({ response: 'Done', respondedAt: EARLIER });
    expect(applyResponse(stored, { comment: 'Done', isPublic: true }, NOW)).toMatchObject({
      mailCommenter: true,
      publicDelta: 1,
      respondedAt: EARLIER,
    });
    const shown = fresh({ isPublic: true, response: 'Done', respondedAt: EARLIER, responseVersion: 1 });
    expect(applyResponse(shown, { comment: 'Done', isPublic: false }, NOW)).toMatchObject({
      isPublic: false,
      mailCommenter: false,
      publicDelta: -1,
    });
  });

  it('an empty response clears it; an unflagged question may be public without one, mailing nobody', () => {
    const stored = fresh({ response: 'Old', respondedAt: EARLIER });
    expect(applyResponse(stored, { comment: '  ', isPublic: true }, NOW)).toMatchObject({
      response: null,
      respondedAt: null,
      mailCommenter: false,
      publicDelta: 1,
    });
  });

  it('a flagged comment is never made public without a response', () => {
    expect(() => applyResponse(fresh({ flags: [flag] }), { comment: ' ', isPublic: true }, NOW)).toThrow(
      COMMENT_TEXTS.flaggedNeedsResponse,
    );
    expect(
      applyResponse(fresh({ flags: [flag] }), { comment: 'We cannot comment.', isPublic: true }, NOW),
    ).toMatchObject({
      isPublic: true,
      mailCommenter: true,
    });
    expect(applyResponse(fresh({ flags: [flag] }), { comment: '', isPublic: false }, NOW).isPublic).toBe(
      false,
    );
  });

  it('refuses a response over the limit', () => {
    expect(() => applyResponse(fresh(), { comment: 'r'.repeat(5001), isPublic: false }, NOW)).toThrow(
      'Your response must be at most 5000 characters',
    );
  });
});
