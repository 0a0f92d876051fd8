import { AppError } from '@irp/platform';
import { actor } from '@irp/proto/testing';
import {
  AnnouncementRuleMessages,
  assembleUpload,
  checkSave,
  decodeBase64,
  existingDateOf,
  isEdit,
  manualSendChannels,
  minuteOf,
  nextHeadlineOriginal,
  pdfFileName,
  pickEditTarget,
  requireAdminForConfirmation,
  requireEditAnnouncements,
  requireSendAnnouncements,
  SaveInput,
  slugOf,
} from './announcement-rules';

function refusal(run: () => unknown): AppError {
  try {
    run();
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('expected a refusal');
}

const asxAdd: SaveInput = {
  exchange: 'ASX',
  headline: 'Quarterly Activities Report',
  date: '22 Mar 2025 8:50 AM',
  remotePath: '',
  videoUrl: '',
  hasUpload: true,
};

describe('checkSave', () => {
  it("refuses a missing headline with the spec's message, before anything else", () => {
    const err = refusal(() => checkSave({ ...asxAdd, headline: '   ', date: 'garbage', hasUpload: false }));
    expect(err.code).toBe('BAD_REQUEST');
    expect(err.message).toBe('Headline not defined');
  });

  it('refuses a date it cannot parse, naming the value as typed', () => {
    const err = refusal(() => checkSave({ ...asxAdd, date: '32 Mar 2025 8:50 AM' }));
    expect(err.message).toBe('Unable to parse date 32 Mar 2025 8:50 AM');
  });

  it('refuses a date outside the years a release can have, saying so (issue 34: year 9999 was stored)', () => {
    for (const date of ['22 Mar 9999 8:50 AM', '0000-01-01', '22 Mar 1989 8:50 AM'])
      expect(refusal(() => checkSave({ ...asxAdd, date })).message).toBe(
        `Unable to parse date ${date}: the year must be from 1990 to 2100`,
      );
    expect(checkSave({ ...asxAdd, date: '31 Dec 2100 11:59 PM' }).releasedAt.toISOString()).toBe(
      '2100-12-31T12:59:00.000Z',
    );
  });

  it('reads the date in Sydney time and trims the headline', () => {
    const checked = checkSave({ ...asxAdd, headline: '  Half Year Report ' });
    expect(checked).toMatchObject({
      editing: false,
      headline: 'Half Year Report',
      remotePath: null,
      videoUrl: '',
    });
    expect(checked.releasedAt.toISOString()).toBe('2025-03-21T21:50:00.000Z');
  });

  it('needs a PDF for an ASX add but not for an ASX edit', () => {
    expect(refusal(() => checkSave({ ...asxAdd, hasUpload: false })).message).toBe(
      'File upload not defined. Must upload a pdf',
    );
    expect(
      checkSave({ ...asxAdd, hasUpload: false, sendGuid: '6f1c1a56-1f7b-4c1e-9d7e-5e0f7f1b2c3d' }).editing,
    ).toBe(true);
    expect(
      checkSave({
        ...asxAdd,
        hasUpload: false,
        existingAnnouncementHeadline: 'Old',
        existingAnnouncementDate: '1 Mar 2025 9:00 AM',
      }).editing,
    ).toBe(true);
  });

  it('ignores remotePath on ASX (the source owns it)', () => {
    expect(checkSave({ ...asxAdd, remotePath: 'javascript:alert(1)' }).remotePath).toBeNull();
  });

  it('takes an http(s) URL and no file for other exchanges', () => {
    const lse: SaveInput = {
      ...asxAdd,
      exchange: 'LSE',
      hasUpload: false,
      remotePath: ' https://lse.example/a ',
    };
    expect(checkSave(lse).remotePath).toBe('https://lse.example/a');
    expect(refusal(() => checkSave({ ...lse, hasUpload: true })).message).toBe(
      AnnouncementRuleMessages.fileOnlyForAsx,
    );
    expect(refusal(() => checkSave({ ...lse, remotePath: '' })).message).toBe(
      AnnouncementRuleMessages.urlRequired,
    );
    expect(refusal(() => checkSave({ ...lse, remotePath: 'ftp://lse.example/a' })).message).toBe(
      'The URL ftp://lse.example/a is not an http(s) URL',
    );
    expect(refusal(() => checkSave({ ...lse, remotePath: 'https://' })).code).toBe('BAD_REQUEST');
    // An edit that leaves the URL empty keeps the stored one.
    expect(
      checkSave({ ...lse, remotePath: '', sendGuid: '6f1c1a56-1f7b-4c1e-9d7e-5e0f7f1b2c3d' }).remotePath,
    ).toBeNull();
  });

  it('accepts only an http(s) video URL', () => {
    expect(checkSave({ ...asxAdd, videoUrl: 'https://video.example/v' }).videoUrl).toBe(
      'https://video.example/v',
    );
    expect(refusal(() => checkSave({ ...asxAdd, videoUrl: 'javascript:alert(1)' })).message).toBe(
      'The video URL javascript:alert(1) is not an http(s) URL',
    );
  });
});

describe('edit lookup', () => {
  it('is an edit when a guid or an existing headline or date is given', () => {
    expect(isEdit({})).toBe(false);
    expect(isEdit({ existingAnnouncementHeadline: '  ', existingAnnouncementDate: '' })).toBe(false);
    expect(isEdit({ existingAnnouncementHeadline: 'A' })).toBe(true);
    expect(isEdit({ existingAnnouncementDate: '1 Mar 2025' })).toBe(true);
  });

  it('parses the existing date like the date, refusing what does not parse', () => {
    expect(existingDateOf('22 Mar 2025 8:50 AM').toISOString()).toBe('2025-03-21T21:50:00.000Z');
    expect(refusal(() => existingDateOf('yesterday')).message).toBe('Unable to parse date yesterday');
    expect(refusal(() => existingDateOf(undefined)).message).toBe('Unable to parse date ');
  });

  it('matches released_at to the minute', () => {
    const { from, to } = minuteOf(new Date('2025-03-21T21:50:42.123Z'));
    expect(from.toISOString()).toBe('2025-03-21T21:50:00.000Z');
    expect(to.toISOString()).toBe('2025-03-21T21:51:00.000Z');
  });

  it('prefers an announcement not deleted, then the most recently stored', () => {
    const at = (s: string) => new Date(s);
    const deleted = { id: 'd', deletedOn: at('2025-03-02T00:00:00Z'), createdAt: at('2025-03-03T00:00:00Z') };
    const older = { id: 'o', deletedOn: null, createdAt: at('2025-03-01T00:00:00Z') };
    const newer = { id: 'n', deletedOn: null, createdAt: at('2025-03-02T00:00:00Z') };
    expect(pickEditTarget([deleted, older, newer])?.id).toBe('n');
    expect(pickEditTarget([deleted])?.id).toBe('d');
    expect(pickEditTarget([])).toBeNull();
  });
});

describe('nextHeadlineOriginal', () => {
  it('keeps the first headline once it changes, never overwritten by later edits', () => {
    const first = { headline: 'First', headlineOriginal: null };
    expect(nextHeadlineOriginal(first, 'First')).toBeNull();
    expect(nextHeadlineOriginal(first, 'Second')).toBe('First');
    expect(nextHeadlineOriginal({ headline: 'Second', headlineOriginal: 'First' }, 'Third')).toBe('First');
    expect(nextHeadlineOriginal({ headline: 'Third', headlineOriginal: 'First' }, 'Third')).toBe('First');
  });

  it('clears it when the headline is edited back to the original', () => {
    expect(nextHeadlineOriginal({ headline: 'Second', headlineOriginal: 'First' }, 'First')).toBeNull();
  });
});

describe('uploads', () => {
  const pdf = Buffer.from('%PDF-1.7\n...');

  it('joins exactly the parts named, in index order', () => {
    const parts = [
      { index: 1, data: pdf.subarray(4) },
      { index: 0, data: pdf.subarray(0, 4) },
    ];
    expect(assembleUpload(parts, 2, 1024).equals(pdf)).toBe(true);
  });

  it('refuses an incomplete upload', () => {
    const msg = 'The upload is incomplete';
    expect(refusal(() => assembleUpload([{ index: 0, data: pdf }], 2, 1024)).message).toBe(msg);
    expect(
      refusal(() =>
        assembleUpload(
          [
            { index: 0, data: pdf },
            { index: 2, data: pdf },
          ],
          2,
          1024,
        ),
      ).message,
    ).toBe(msg);
    expect(refusal(() => assembleUpload([], 1, 1024)).message).toBe(msg);
  });

  it('refuses what is not a PDF or is larger than the limit', () => {
    expect(refusal(() => assembleUpload([{ index: 0, data: Buffer.from('<html>') }], 1, 1024)).message).toBe(
      'The file is not a PDF',
    );
    const big = Buffer.concat([pdf, Buffer.alloc(1024 * 1024)]);
    expect(refusal(() => assembleUpload([{ index: 0, data: big }], 1, 1024 * 1024)).message).toBe(
      'The file is larger than 1 MB',
    );
    expect(AnnouncementRuleMessages.fileTooLarge(20 * 1024 * 1024)).toBe('The file is larger than 20 MB');
    expect(AnnouncementRuleMessages.fileTooLarge(1.5 * 1024 * 1024)).toBe('The file is larger than 1.5 MB');
  });

  it('decodes strict base64 only', () => {
    expect(decodeBase64(pdf.toString('base64')).equals(pdf)).toBe(true);
    expect(decodeBase64('').length).toBe(0);
    expect(refusal(() => decodeBase64('not base64!')).message).toBe('The upload part is not base64');
    expect(refusal(() => decodeBase64('abc')).code).toBe('BAD_REQUEST');
  });
});

describe('manualSendChannels', () => {
  const off = {
    sendPriceSensitiveAnnouncements: false,
    sendNonPriceSensitiveAnnouncements: false,
    autoSendAnnouncementEmail: false,
    autoSendNonPriceSensitiveAnnouncements: false,
  };

  it("uses the channels the stock's switches choose for the kind of announcement", () => {
    const both = { ...off, sendPriceSensitiveAnnouncements: true, autoSendAnnouncementEmail: true };
    expect(manualSendChannels(both, true, 'ABC')).toEqual(['email', 'email-marketing']);
    expect(manualSendChannels({ ...off, sendNonPriceSensitiveAnnouncements: true }, false, 'ABC')).toEqual([
      'email',
    ]);
  });

  it('falls back to any switched-on channel when none is chosen for this kind', () => {
    expect(manualSendChannels({ ...off, autoSendAnnouncementEmail: true }, false, 'ABC')).toEqual([
      'email-marketing',
    ]);
    expect(
      manualSendChannels(
        { ...off, autoSendNonPriceSensitiveAnnouncements: true, sendNonPriceSensitiveAnnouncements: true },
        true,
        'ABC',
      ),
    ).toEqual(['email', 'email-marketing']);
  });

  it('refuses when no switch is on, naming the ticker', () => {
    expect(refusal(() => manualSendChannels(off, true, 'VOD:LSE')).message).toBe(
      'No sending channel is switched on for VOD:LSE: turn on Email or email marketing sending on the Config tab',
    );
  });
});

describe('file names', () => {
  it('slugs a headline to lower-case words joined by -', () => {
    expect(slugOf('Appendix 3B – New Issue (Amended)!')).toBe('appendix-3b-new-issue-amended');
    expect(slugOf('Société Générale: Résultats')).toBe('societe-generale-resultats');
    expect(slugOf('???')).toBe('announcement');
    expect(slugOf('x'.repeat(200)).length).toBe(80);
  });

  it("names the PDF '<TICKER>-<yyyy-mm-dd>-<slug>.pdf' with the Sydney date", () => {
    // 22 Mar 2025 in Sydney is still 21 Mar in UTC.
    expect(pdfFileName('abc', new Date('2025-03-21T21:50:00.000Z'), 'Quarterly Report')).toBe(
      'ABC-2025-03-22-quarterly-report.pdf',
    );
  });
});

describe('authorization', () => {
  const stock = { id: '6f1c1a56-1f7b-4c1e-9d7e-5e0f7f1b2c3d', ticker: 'ABC', exchange: 'ASX' };
  const user = (roles: string[], stockRoles: string[] = []) =>
    actor({ username: 'u', roles, stockRoles: { [stock.id]: stockRoles } });

  it('lets admins and holders of the stock role through, and no one else', () => {
    expect(() => requireEditAnnouncements(user(['Admin']), stock)).not.toThrow();
    expect(() => requireEditAnnouncements(user([], ['EditAnnouncements']), stock)).not.toThrow();
    expect(refusal(() => requireEditAnnouncements(user([], ['SendMailchimp']), stock)).code).toBe(
      'FORBIDDEN',
    );
    expect(() => requireSendAnnouncements(user([], ['SendMailchimp']), stock)).not.toThrow();
    expect(
      refusal(() => requireSendAnnouncements(user(['RunReports'], ['EditAnnouncements']), stock)).message,
    ).toBe('You may not send the announcements of ABC');
    expect(() => requireAdminForConfirmation(user(['Admin']))).not.toThrow();
    expect(refusal(() => requireAdminForConfirmation(user([], ['SendMailchimp']))).code).toBe('FORBIDDEN');
  });
});
