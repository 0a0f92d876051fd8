import { describe, expect, it } from 'vitest';
import { announcement } from '../test/fixtures';
import {
  formatAlertLatency,
  announcementFormData,
  documentHref,
  flagsOf,
  formValuesOf,
  rowActions,
  sortNewestFirst,
  takesPdfUpload,
  wasSent,
  withOlder,
  type AnnouncementPermissions,
} from './announcements';

const ADMIN: AnnouncementPermissions = {
  edit: true,
  send: true,
  sendConfirmation: true,
  resync: true,
  viewComments: true,
};
const EDITOR: AnnouncementPermissions = {
  edit: true,
  send: false,
  sendConfirmation: false,
  resync: false,
  viewComments: false,
};
const EDITOR_SENDER: AnnouncementPermissions = { ...EDITOR, send: true };

describe('announcement rules of the tab', () => {
  it('sorts newest first without changing the list given', () => {
    const a = announcement({ date: '2024-01-01T00:00:00.000Z' });
    const b = announcement({ date: '2025-01-01T00:00:00.000Z' });
    const c = announcement({ date: '2024-06-01T00:00:00.000Z' });
    const list = [a, b, c];
    expect(sortNewestFirst(list)).toEqual([b, c, a]);
    expect(list).toEqual([a, b, c]);
  });

  it('keeps the service order of announcements released at one moment, sorted or not', () => {
    const at = '2024-06-01T00:00:00.000Z';
    const [x, y] = [announcement({ date: at }), announcement({ date: at })];
    const older = announcement({ date: '2020-01-01T00:00:00.000Z' });
    expect(sortNewestFirst([x, y, older])).toEqual([x, y, older]);
    expect(sortNewestFirst([older, x, y])).toEqual([x, y, older]);
  });

  it('follows a first page with the older pages, each announcement once', () => {
    const [a, b, c] = [announcement(), announcement(), announcement()];
    const first = [a, b];
    expect(withOlder(first, [])).toBe(first);
    expect(withOlder(first, [b, c])).toEqual([a, b, c]);
    expect(withOlder(first, [c, c])).toEqual([a, b, c]);
  });

  it('offers the row menu by role, and no Delete or sending on a deleted announcement', () => {
    const live = announcement();
    const deleted = announcement({ deletedOn: '2025-02-02T03:15:00.000Z' });
    expect(rowActions(live, ADMIN)).toEqual(['edit', 'send', 'sendConfirmation', 'delete']);
    expect(rowActions(live, EDITOR)).toEqual(['edit', 'delete']);
    expect(rowActions(live, EDITOR_SENDER)).toEqual(['edit', 'send', 'delete']);
    expect(rowActions(deleted, ADMIN)).toEqual(['edit']);
  });

  it('treats a sent or send-requested announcement as sent (a resend needs the override)', () => {
    expect(wasSent(announcement())).toBe(false);
    expect(wasSent(announcement({ sent: true }))).toBe(true);
    expect(wasSent(announcement({ sendRequestedAt: '2025-03-22T00:00:00.000Z' }))).toBe(true);
  });

  it('names each icon as its tooltip reads', () => {
    const history = Array.from({ length: 7 }, (_, i) => ({
      timestamp: `2025-01-10T23:0${i}:00.000Z`,
      emailAddress: `r${i}@example.com`,
    }));
    const [sent] = flagsOf(announcement({ sent: true, sendHistory: history }));
    expect(sent?.label).toBe('Sent (7 in send history)');
    expect(sent?.details).toEqual([
      '11 Jan 2025 10:06 AM r6@example.com',
      '11 Jan 2025 10:05 AM r5@example.com',
      '11 Jan 2025 10:04 AM r4@example.com',
      '11 Jan 2025 10:03 AM r3@example.com',
      '11 Jan 2025 10:02 AM r2@example.com',
      'and 2 more',
    ]);
    expect(
      flagsOf(announcement({ sendRequestedAt: '2025-03-21T21:50:00.000Z' })).map((f) => f.label),
    ).toEqual(['Send requested 22 Mar 2025 8:50 AM']);
    expect(
      flagsOf(
        announcement({
          priceSensitive: true,
          deletedOn: '2025-03-21T21:50:00.000Z',
          headline: 'New',
          headlineOriginal: 'Old',
          fileProblem: 'The file is not a PDF',
          autoSend: 'held-daily',
        }),
      ).map((f) => f.label),
    ).toEqual([
      'Price sensitive',
      'Deleted 22 Mar 2025 8:50 AM',
      'Original headline: Old',
      'File problem: The file is not a PDF',
      'Not sent automatically: the daily auto-send limit was reached',
    ]);
    expect(flagsOf(announcement({ autoSend: 'held-hourly' })).map((f) => f.label)).toEqual([
      'Not sent automatically: the hourly auto-send limit was reached',
    ]);
    expect(flagsOf(announcement({ autoSend: 'filtered' })).map((f) => f.label)).toEqual([
      'Not sent automatically: matches the auto-send filter',
    ]);
    // Sent by hand after the filter held it back: only the sent icon.
    expect(flagsOf(announcement({ autoSend: 'filtered', sent: true })).map((f) => f.kind)).toEqual(['sent']);
    expect(
      flagsOf(announcement({ autoSend: 'requested', headlineOriginal: 'Same', headline: 'Same' })),
    ).toEqual([]);
  });

  it('fills the form for a new announcement with now in Sydney time, and for an edit from the announcement', () => {
    expect(formValuesOf(null, new Date('2025-03-21T21:50:00.000Z'))).toMatchObject({
      headline: '',
      date: '22 Mar 2025 8:50 AM',
      priceSensitive: false,
      file: null,
    });
    expect(
      formValuesOf(
        announcement({
          headline: 'Results',
          date: '2025-07-01T00:05:00.000Z',
          priceSensitive: true,
          remotePath: 'https://lse.example/vod/1',
          thumbnailPageNum: 3,
        }),
      ),
    ).toEqual({
      headline: 'Results',
      date: '1 Jul 2025 10:05 AM',
      priceSensitive: true,
      remotePath: 'https://lse.example/vod/1',
      videoUrl: '',
      videoDescription: '',
      thumbnailPageNum: '3',
      file: null,
    });
  });

  it('builds the multipart body: the edit names the announcement, the PDF goes in `file`', () => {
    const existing = announcement({ headline: 'Old headline', date: '2025-03-21T21:50:00.000Z' });
    const file = new File(['%PDF-1.4'], 'results.pdf', { type: 'application/pdf' });
    const form = announcementFormData(
      { ...formValuesOf(existing), headline: ' New headline ', file },
      existing,
    );
    expect(Object.fromEntries([...form.entries()].filter(([key]) => key !== 'file'))).toEqual({
      headline: 'New headline',
      date: '22 Mar 2025 8:50 AM',
      remotePath: '',
      priceSensitive: 'false',
      videoUrl: '',
      videoDescription: '',
      thumbnailPageNum: '',
      existingAnnouncementHeadline: 'Old headline',
      existingAnnouncementDate: '22 Mar 2025 8:50 AM',
      sendGuid: existing.sendGuid,
    });
    const sent = form.get('file');
    expect(sent).toBeInstanceOf(File);
    expect((sent as File).name).toBe('results.pdf');

    const added = announcementFormData(formValuesOf(null), null);
    expect(added.has('sendGuid')).toBe(false);
    expect(added.has('existingAnnouncementHeadline')).toBe(false);
    expect(added.has('file')).toBe(false);
  });

  it('links the stored PDF, else a non-ASX http(s) address, never anything else', () => {
    const stored = announcement();
    expect(documentHref(stored)).toBe(stored.pdfUrl);
    expect(documentHref(announcement({ pdfUrl: null, remotePath: 'https://lse.example/1' }))).toBe(
      'https://lse.example/1',
    );
    expect(documentHref(announcement({ pdfUrl: null, remotePath: 'javascript:alert(1)' }))).toBeNull();
    expect(takesPdfUpload('ASX')).toBe(true);
    expect(takesPdfUpload('LSE')).toBe(false);
  });
});

describe('alert latency', () => {
  it('reads as seconds, minutes, hours or days; blank before any subscriber mail', () => {
    expect(formatAlertLatency(null)).toBe('');
    expect(formatAlertLatency(42_400)).toBe('42 s');
    expect(formatAlertLatency(185_000)).toBe('3 min 5 s');
    expect(formatAlertLatency(120_000)).toBe('2 min');
    expect(formatAlertLatency(7_800_000)).toBe('2 h 10 min');
    expect(formatAlertLatency(3 * 86_400_000 + 4 * 3_600_000)).toBe('3 d 4 h');
  });
});
