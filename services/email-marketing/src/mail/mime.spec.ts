import { simpleParser } from 'mailparser';
import { emailMarketingConfigSchema } from '../config';
import { composeMail, formatMailbox, isPlainAddress, parseMailbox } from './mime';
import { announcementMail } from './templates';

const announcement = {
  id: '9d0c5f7e-6a39-4c55-8d5c-3f1f2d0c4a11',
  headline: 'Quarterly Activities Report – Appendix 4C “cash flow” ✓ and a headline long enough to be folded',
  date: '2026-11-20T22:15:00.000Z',
  priceSensitive: true,
  pdfUrl: '/api/Announcement/read-file/BHP:ASX/abc.pdf',
  remotePath: '',
  sendGuid: 'g-1',
} as unknown as Parameters<typeof announcementMail>[0]['announcement'];

const content = announcementMail({
  stock: { ticker: 'BHP', exchange: 'ASX', companyName: 'Société Générale, Pty', companyLogoUrl: '' },
  announcement,
  publicBaseUrl: 'http://127.0.0.1:3000',
  unsubscribeUrl: 'http://127.0.0.1:3000/unsubscribe/tok-123',
  oneClickUrl: 'http://127.0.0.1:3000/api/subscriptions/one-click/tok-123',
  preferencesUrl: 'http://127.0.0.1:3000/subscription/preferences/tok-123',
});

describe('composeMail', () => {
  it('builds a message every part of which a mail client reads back as written', async () => {
    const mail = composeMail({
      from: parseMailbox('"IR Portal, Announcements" <announcements@irportal.example>'),
      to: 'investor@example.com',
      replyTo: 'ir@company.example',
      content,
      date: new Date('2026-11-21T00:00:00Z'),
    });
    const parsed = await simpleParser(mail.raw);
    expect(parsed.subject).toBe(content.subject);
    expect(parsed.text).toBe(content.text);
    expect(parsed.html).toBe(content.html);
    expect(parsed.from?.value).toEqual([
      { name: 'IR Portal, Announcements', address: 'announcements@irportal.example' },
    ]);
    expect((parsed.to as { text: string }).text).toBe('investor@example.com');
    expect((parsed.replyTo as { text: string }).text).toBe('ir@company.example');
    expect(parsed.messageId).toBe(mail.messageId);
    expect(mail.messageId).toMatch(/^<[0-9a-f-]{36}@irportal\.example>$/);
    expect(parsed.date?.toISOString()).toBe('2026-11-21T00:00:00.000Z');
    const line = (key: string) =>
      parsed.headerLines.find((h) => h.key === key)?.line.replace(/\r\n\s+/g, ' ');
    expect(line('list-unsubscribe-post')).toBe('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    expect(line('list-unsubscribe')).toBe(
      'List-Unsubscribe: <http://127.0.0.1:3000/api/subscriptions/one-click/tok-123>',
    );
  });

  it('keeps every line within SMTP limits and 7-bit, whatever the content', () => {
    const raw = composeMail({
      from: parseMailbox('Ünïcode Sender <a@b.example>'),
      to: 'c@d.example',
      content: { ...content, html: `<p>${'é'.repeat(5000)}</p>` },
    }).raw.toString('latin1');
    const lines = raw.split('\r\n');
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(78);
    expect([...raw].every((c) => c.charCodeAt(0) < 0x80)).toBe(true);
    expect(raw.endsWith('--\r\n')).toBe(true);
  });

  it('encodes a display name only as much as it needs', () => {
    expect(formatMailbox({ name: 'IR Portal', address: 'a@b.example' })).toBe('IR Portal <a@b.example>');
    expect(formatMailbox({ name: 'Smith, J.', address: 'a@b.example' })).toBe('"Smith, J." <a@b.example>');
    expect(formatMailbox({ name: 'Zoë', address: 'a@b.example' })).toMatch(
      /^=\?UTF-8\?Q\?.+\?= <a@b\.example>$/,
    );
    expect(formatMailbox({ name: '', address: 'a@b.example' })).toBe('a@b.example');
  });

  it('leaves addresses that need IDN or SMTPUTF8 to the full composer', () => {
    expect(isPlainAddress('investor@example.com')).toBe(true);
    expect(isPlainAddress('zoë@exämple.com')).toBe(false);
    expect(isPlainAddress('a@b.example>, c@d.example')).toBe(false);
  });

  it('refuses a MAIL_FROM that is not one address at start', () => {
    expect(emailMarketingConfigSchema.safeParse({ MAIL_FROM: 'not an address' }).success).toBe(false);
    const ok = emailMarketingConfigSchema.safeParse({ MAIL_FROM: 'IR Portal <ir@irportal.example>' });
    expect(ok.success).toBe(true);
  });
});
