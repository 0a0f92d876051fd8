import { generateKeyPairSync } from 'node:crypto';
import DKIM from 'nodemailer/lib/dkim';
import { ConfigError } from '@irp/platform';
import { dkimVerdicts } from '@irp/platform/testing';
import { emailMarketingService } from '../app.module';
import { dkimKeyOf } from '../config';
import { dkimSign, parseDkimPrivateKey, relaxedBodyHash, type DkimKey } from './dkim';
import { DEV_DKIM_PRIVATE_KEY, DEV_DKIM_SELECTOR, developmentDkimRecord } from './dkim-development-key';
import { composeMail } from './mime';
import { announcementMail } from './templates';

const key: DkimKey = {
  domain: 'irportal.example',
  selector: DEV_DKIM_SELECTOR,
  privateKey: parseDkimPrivateKey(DEV_DKIM_PRIVATE_KEY),
};
const published = developmentDkimRecord('irportal.example');

function mail(): Buffer {
  const content = announcementMail({
    stock: { ticker: 'BHP', exchange: 'ASX', companyName: 'BHP Group Limited', companyLogoUrl: '' },
    announcement: {
      id: '7f0b1f5e-3d0e-4b8a-9f55-2f4e5cc1c001',
      sendGuid: '7f0b1f5e-3d0e-4b8a-9f55-2f4e5cc1c002',
      headline: 'Half Year Results — “record” revenue',
      date: '2026-02-17T21:30:00.000Z',
      priceSensitive: true,
      pdfUrl: '/api/Announcement/pdf/7f0b1f5e-3d0e-4b8a-9f55-2f4e5cc1c002',
      remotePath: '',
    } as unknown as Parameters<typeof announcementMail>[0]['announcement'],
    publicBaseUrl: 'https://portal.irportal.example',
    unsubscribeUrl: 'https://portal.irportal.example/subscription/unsubscribe/u1abc',
    oneClickUrl: 'https://portal.irportal.example/api/subscription/unsubscribe/u1abc',
    preferencesUrl: 'https://portal.irportal.example/subscription/preferences/u1abc',
  });
  return composeMail({
    from: { name: 'IR Portal', address: 'announcements@irportal.example' },
    to: 'investor@example.com',
    content,
  }).raw;
}

describe('dkimSign', () => {
  it('signs what a DKIM verifier passes, the one-click unsubscribe headers among the signed', async () => {
    const signed = await dkimSign(mail(), key);
    expect(signed.toString('latin1')).toMatch(
      /^DKIM-Signature: v=1; a=rsa-sha256; c=relaxed\/relaxed; d=irportal\.example; s=irportal-dev;/,
    );
    const [result] = await dkimVerdicts(signed, published);
    expect(result).toMatchObject({ result: 'pass', domain: 'irportal.example', selector: 'irportal-dev' });
    expect(result!.signedHeaders).toEqual(
      expect.arrayContaining([
        'from',
        'to',
        'subject',
        'date',
        'message-id',
        'list-unsubscribe',
        'list-unsubscribe-post',
      ]),
    );
  });

  it('fails verification when the body or a signed header is changed, or a second List-Unsubscribe is put above', async () => {
    const signed = (await dkimSign(mail(), key)).toString('latin1');
    const bodyChanged = signed.replace(
      /(\r\n\r\n[\s\S]*?\r\n\r\n)([A-Za-z0-9+/])/,
      (_, head: string, c: string) => `${head}${c === 'A' ? 'B' : 'A'}`,
    );
    const subjectChanged = signed.replace(/\r\nSubject: /, '\r\nSubject: Re: ');
    // Above the signed one: without naming it twice in h=, the verifier would check the one below and pass.
    const added = `List-Unsubscribe: <https://evil.example/u>\r\n${signed}`;
    for (const changed of [bodyChanged, subjectChanged, added]) {
      expect(changed).not.toBe(signed);
      const [result] = await dkimVerdicts(Buffer.from(changed, 'latin1'), published);
      expect(result?.result).not.toBe('pass');
    }
  });

  it("hashes the body as nodemailer's DKIM signer does (relaxed canonicalization)", async () => {
    const raw = mail();
    const theirs = new DKIM({
      domainName: key.domain,
      keySelector: key.selector,
      privateKey: DEV_DKIM_PRIVATE_KEY,
    }).sign(raw);
    const chunks: Buffer[] = [];
    for await (const chunk of theirs) chunks.push(chunk as Buffer);
    const theirBh = /bh=([^;]+);/.exec(
      Buffer.concat(chunks)
        .toString('latin1')
        .replace(/\r\n\s+/g, ''),
    )?.[1];
    const body = raw.subarray(raw.indexOf('\r\n\r\n') + 4);
    expect(relaxedBodyHash(body)).toBe(theirBh);
    // Trailing spaces, runs of spaces and empty lines at the end do not change a relaxed body.
    expect(relaxedBodyHash(Buffer.from('a  b \t\r\nc\r\n\r\n\r\n'))).toBe(
      relaxedBodyHash(Buffer.from('a b\r\nc\r\n')),
    );
    expect(relaxedBodyHash(Buffer.from(''))).toBe('47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=');
  });
});

describe('DKIM configuration', () => {
  const load = (extra: NodeJS.ProcessEnv) =>
    emailMarketingService.loadConfig({
      KAFKA_BROKERS: 'a:1',
      DATABASE_URL: 'postgres://x@127.0.0.1/db',
      ...extra,
    });
  /** The DKIM lines of the refusal (production wants other secrets too). */
  const problems = (extra: NodeJS.ProcessEnv): string[] => {
    try {
      load(extra);
      return [];
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      return (err as Error).message
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line.startsWith('DKIM_'));
    }
  };
  const own = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
    type: 'pkcs8',
    format: 'pem',
  }) as string;

  it('signs with the development key outside production, and refuses it (or none) in production', () => {
    expect(dkimKeyOf(load({}))).toMatchObject({ domain: 'irportal.local', selector: DEV_DKIM_SELECTOR });
    expect(problems({ NODE_ENV: 'production' })).toEqual([
      expect.stringMatching(/^DKIM_PRIVATE_KEY: must be set in production/),
    ]);
    const escaped = DEV_DKIM_PRIVATE_KEY.replace(/\n/g, '\\n');
    expect(problems({ NODE_ENV: 'production', DKIM_PRIVATE_KEY: escaped, DKIM_SELECTOR: 's1' })).toEqual([
      'DKIM_PRIVATE_KEY: the development key published in this repository; set your own in production',
    ]);
    expect(problems({ NODE_ENV: 'production', DKIM_PRIVATE_KEY: own, DKIM_SELECTOR: 's2026' })).toEqual([]);
  });

  it('refuses a key that is not one, a key without a selector, and a domain that does not align with MAIL_FROM', () => {
    expect(problems({ DKIM_PRIVATE_KEY: 'not a key', DKIM_SELECTOR: 's1' })).toEqual([
      expect.stringMatching(/^DKIM_PRIVATE_KEY: not a usable DKIM key/),
    ]);
    expect(problems({ DKIM_PRIVATE_KEY: own })).toEqual(['DKIM_SELECTOR: required with DKIM_PRIVATE_KEY']);
    const from = { MAIL_FROM: 'IR <a@mail.irportal.example>' };
    expect(problems({ ...from, DKIM_DOMAIN: 'other.example' })).toEqual([
      "DKIM_DOMAIN: other.example does not align with MAIL_FROM's domain mail.irportal.example (it must be that domain or a parent of it)",
    ]);
    const parent = load({
      ...from,
      DKIM_DOMAIN: 'IRPortal.example',
      DKIM_PRIVATE_KEY: own,
      DKIM_SELECTOR: 's2026',
    });
    expect(dkimKeyOf(parent)).toMatchObject({ domain: 'irportal.example', selector: 's2026' });
  });
});
