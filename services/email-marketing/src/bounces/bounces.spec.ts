import { randomUUID } from 'node:crypto';
import { ConfigError } from '@irp/platform';
import { deliveryStatusReport, feedbackReport, type SinkMail } from '@irp/platform/testing';
import { emailMarketingService } from '../app.module';
import { bounceDomainOf } from '../config';
import { bounceKindOf, enhancedStatusOf, isComplaintFeedback } from './bounce-rules';
import { readMailReport } from './mail-reports';
import { ReturnPaths } from './return-paths';

const paths = new ReturnPaths('a-secret-of-at-least-thirty-two-characters', 'bounces.irportal.example');

/** A mail as the test SMTP sink records it, sent with `returnPath`. */
function sunk(returnPath: string, to = 'investor@example.com'): SinkMail {
  const raw = Buffer.from(
    [
      'From: IR Portal <announcements@irportal.example>',
      `To: ${to}`,
      'Subject: BHP: Half Year Results',
      'List-Unsubscribe: <https://portal.example/api/subscription/unsubscribe/u1TOKEN>',
      'List-Unsubscribe-Post: List-Unsubscribe=One-Click',
      '',
      'The results.',
      '',
    ].join('\r\n'),
  );
  return {
    from: 'announcements@irportal.example',
    returnPath,
    to: [to],
    subject: 'BHP: Half Year Results',
    html: '',
    text: '',
    headers: new Map(),
    rawHeaders: {},
    messageId: '',
    parsed: {} as SinkMail['parsed'],
    raw,
  };
}

describe('VERP return paths', () => {
  it('names the delivery in lower-case hex within a 64-character local part, and only for this secret and domain', () => {
    const id = randomUUID();
    const address = paths.forDelivery(id);
    expect(address).toMatch(/^bounces\+[0-9a-f]{48}@bounces\.irportal\.example$/);
    expect(address.split('@')[0]!.length).toBeLessThanOrEqual(64);
    expect(paths.deliveryOf(address)).toBe(id);
    // A server that folds the case of the address still names the delivery.
    expect(paths.deliveryOf(address.toUpperCase())).toBe(id);
    // Another secret's, another domain's, an altered id or mac: no delivery.
    expect(
      new ReturnPaths('another-secret-of-at-least-thirty-two-chars', paths.domain).deliveryOf(address),
    ).toBe(undefined);
    expect(paths.deliveryOf(address.replace('irportal.example', 'other.example'))).toBeUndefined();
    const local = address.split('@')[0]!;
    const flipped = `${local.slice(0, 10)}${local[10] === 'a' ? 'b' : 'a'}${local.slice(11)}@${paths.domain}`;
    expect(paths.deliveryOf(flipped)).toBeUndefined();
    expect(paths.deliveryOf(`bounces@${paths.domain}`)).toBeUndefined();
    expect(paths.isComplaintsAddress(`Complaints@${paths.domain}`)).toBe(true);
    expect(paths.isComplaintsAddress(`complaints@other.example`)).toBe(false);
  });
});

describe('bounce rules', () => {
  it('reads the enhanced status of a DSN field or an SMTP reply', () => {
    expect(enhancedStatusOf('5.1.1')).toBe('5.1.1');
    expect(enhancedStatusOf('550 5.1.1 <x@example.com>: Recipient address rejected')).toBe('5.1.1');
    expect(enhancedStatusOf('550-5.7.1 Message rejected as spam')).toBe('5.7.1');
    expect(enhancedStatusOf('550 Mailbox unavailable')).toBeUndefined();
    expect(enhancedStatusOf('smtp; 452 4.2.2 Mailbox full')).toBe('4.2.2');
  });

  it('a missing or disabled mailbox is a hard bounce; a full one, a policy refusal, a delay or no code is soft', () => {
    expect(bounceKindOf('5.1.1')).toBe('hard-bounce');
    expect(bounceKindOf('550 5.1.10 Recipient address rejected')).toBe('hard-bounce');
    expect(bounceKindOf('5.1.2')).toBe('hard-bounce');
    expect(bounceKindOf('5.2.1')).toBe('hard-bounce');
    expect(bounceKindOf('5.2.2')).toBe('soft-bounce');
    expect(bounceKindOf('550 5.7.1 Message rejected as spam')).toBe('soft-bounce');
    expect(bounceKindOf('4.4.7')).toBe('soft-bounce');
    expect(bounceKindOf('550 Mailbox unavailable')).toBe('soft-bounce');
    expect(bounceKindOf(undefined)).toBe('soft-bounce');
  });

  it('a complaint is an abuse, fraud, virus or other report; not-spam and auth-failure are not', () => {
    for (const t of ['abuse', 'Abuse', 'fraud', 'virus', 'other', undefined])
      expect(isComplaintFeedback(t)).toBe(true);
    for (const t of ['not-spam', 'auth-failure']) expect(isComplaintFeedback(t)).toBe(false);
  });
});

describe('reading reports (mailparser)', () => {
  const returnPath = paths.forDelivery(randomUUID());

  it('a DSN: each failed recipient as a hard or soft bounce with its status and diagnostic; the original quoted', async () => {
    const read = await readMailReport(
      deliveryStatusReport(sunk(returnPath), {
        status: '5.1.1',
        diagnostic: '550 5.1.1 <investor@example.com>: Recipient address rejected: User unknown',
      }),
    );
    expect(read).toEqual({
      reports: [
        {
          kind: 'hard-bounce',
          source: 'dsn',
          recipient: 'investor@example.com',
          detail: '5.1.1 smtp; 550 5.1.1 <investor@example.com>: Recipient address rejected: User unknown',
        },
      ],
      original: {
        returnPath: undefined,
        listUnsubscribe: '<https://portal.example/api/subscription/unsubscribe/u1TOKEN>',
      },
    });
    const soft = await readMailReport(deliveryStatusReport(sunk(returnPath), { status: '4.2.2' }));
    expect(soft?.reports).toEqual([expect.objectContaining({ kind: 'soft-bounce', detail: '4.2.2' })]);
  });

  it('a delay warning is no bounce; a mail that is no report (an auto-reply) is nothing', async () => {
    const delayed = await readMailReport(
      deliveryStatusReport(sunk(returnPath), { status: '4.4.7', action: 'delayed' }),
    );
    expect(delayed?.reports).toEqual([]);
    expect(
      await readMailReport(
        Buffer.from('From: a@example.com\r\nSubject: Out of office\r\n\r\nAway until Monday.\r\n'),
      ),
    ).toBeUndefined();
  });

  it('an ARF report: a complaint, with the original envelope sender and List-Unsubscribe', async () => {
    const read = await readMailReport(feedbackReport(sunk(returnPath), { to: `complaints@${paths.domain}` }));
    expect(read).toEqual({
      reports: [
        {
          kind: 'complaint',
          source: 'arf',
          recipient: 'investor@example.com',
          detail: 'Feedback-Type: abuse',
        },
      ],
      original: {
        returnPath,
        listUnsubscribe: '<https://portal.example/api/subscription/unsubscribe/u1TOKEN>',
      },
    });
    const notSpam = await readMailReport(
      feedbackReport(sunk(returnPath), { to: `complaints@${paths.domain}`, feedbackType: 'not-spam' }),
    );
    expect(notSpam?.reports).toEqual([]);
  });
});

describe('bounce configuration', () => {
  const load = (extra: NodeJS.ProcessEnv) =>
    emailMarketingService.loadConfig({
      KAFKA_BROKERS: 'a:1',
      DATABASE_URL: 'postgres://x@127.0.0.1/db',
      ...extra,
    });

  it("MAIL_FROM's domain by default; a subdomain or a parent of it; any other domain is refused", () => {
    expect(bounceDomainOf(load({ MAIL_FROM: 'IR <news@irportal.example>' }))).toBe('irportal.example');
    expect(
      bounceDomainOf(
        load({ MAIL_FROM: 'IR <news@irportal.example>', BOUNCE_DOMAIN: 'Bounces.IRPortal.example' }),
      ),
    ).toBe('bounces.irportal.example');
    expect(() =>
      load({ MAIL_FROM: 'IR <news@mail.irportal.example>', BOUNCE_DOMAIN: 'irportal.example' }),
    ).not.toThrow();
    expect(() =>
      load({ MAIL_FROM: 'IR <news@irportal.example>', BOUNCE_DOMAIN: 'elsewhere.example' }),
    ).toThrow(ConfigError);
    expect(() =>
      load({ MAIL_FROM: 'IR <news@irportal.example>', BOUNCE_DOMAIN: 'elsewhere.example' }),
    ).toThrow(/BOUNCE_DOMAIN: elsewhere\.example does not align/);
  });
});
