import {
  createHash,
  createPrivateKey,
  createPublicKey,
  sign as signAsync,
  type KeyObject,
} from 'node:crypto';
import { promisify } from 'node:util';

/**
 * DKIM signing (RFC 6376) of our finished messages: rsa-sha256, relaxed/relaxed, one signature per mail
 * for the sending domain. Gmail, Yahoo and Microsoft reject bulk mail without a signature aligned with the
 * From domain, and want the RFC 8058 one-click headers covered by it.
 *
 * Our own signer rather than nodemailer's DKIM stream (the reference it is checked against in
 * dkim.spec.ts): the RSA signature is the costly part (a few milliseconds per mail on a slow core), and
 * `crypto.sign` with a callback runs it on libuv's thread pool, so a sender keeps its event loop for SMTP
 * and the database while the signatures use the other cores; nodemailer's signer signs synchronously on
 * the event loop. Canonicalization is a pass over the message's lines, like composing it (mime.ts).
 */

/**
 * The header fields signed, in the h= tag. Each that a mail has is signed; `OVERSIGNED` are named once more,
 * so a field of that name added after signing (a second List-Unsubscribe, a From) breaks the signature.
 */
export const SIGNED_FIELDS = [
  'from',
  'reply-to',
  'subject',
  'date',
  'message-id',
  'to',
  'cc',
  'mime-version',
  'content-type',
  'content-transfer-encoding',
  'list-id',
  'list-unsubscribe',
  'list-unsubscribe-post',
  'feedback-id',
] as const;
const OVERSIGNED = new Set(['from', 'subject', 'list-unsubscribe', 'list-unsubscribe-post']);

export interface DkimKey {
  /** d=: the signing domain, the From address's domain or one of its parents (DMARC alignment). */
  domain: string;
  /** s=: the selector; the public key is published at `<selector>._domainkey.<domain>` (TXT). */
  selector: string;
  privateKey: KeyObject;
}

const SELECTOR = /^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*$/;
const DOMAIN = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$/;

export const isDkimSelector = (value: string): boolean => SELECTOR.test(value) && value.length <= 63;
export const isDkimDomain = (value: string): boolean => DOMAIN.test(value);

/** Whether a signature for `signingDomain` aligns with a From address of `fromDomain` (DMARC relaxed). */
export const alignsWith = (signingDomain: string, fromDomain: string): boolean => {
  const d = signingDomain.toLowerCase();
  const from = fromDomain.toLowerCase();
  return from === d || from.endsWith(`.${d}`);
};

/** A PEM private key (literal newlines, or `\n` as an environment variable often carries them). */
export function parseDkimPrivateKey(pem: string): KeyObject {
  const key = createPrivateKey(pem.includes('\\n') ? pem.replace(/\\n/g, '\n') : pem);
  if (key.asymmetricKeyType !== 'rsa') throw new Error(`an RSA key is needed, not ${key.asymmetricKeyType}`);
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (bits < 1024) throw new Error(`an RSA key of at least 1024 bits is needed (2048 advised), not ${bits}`);
  return key;
}

/** The DNS TXT record that publishes the key: `v=DKIM1; k=rsa; p=<the public key, base64 DER>`. */
export function dkimTxtRecord(privateKey: KeyObject): string {
  const der = createPublicKey(privateKey).export({ type: 'spki', format: 'der' });
  return `v=DKIM1; k=rsa; p=${der.toString('base64')}`;
}

/** The header block and the body of a message (split at its first empty line). */
function split(raw: Buffer): { head: string; body: Buffer } {
  const at = raw.indexOf('\r\n\r\n');
  if (at < 0) return { head: raw.toString('latin1'), body: Buffer.alloc(0) };
  return { head: raw.subarray(0, at + 2).toString('latin1'), body: raw.subarray(at + 4) };
}

/** The header fields of a header block, each with its folded lines, in order. */
function fieldsOf(head: string): Array<{ name: string; text: string }> {
  const fields: Array<{ name: string; text: string }> = [];
  for (const line of head.split('\r\n')) {
    if (!line) continue;
    const last = fields[fields.length - 1];
    if ((line[0] === ' ' || line[0] === '\t') && last) last.text += `\r\n${line}`;
    else
      fields.push({
        name: line
          .slice(0, Math.max(0, line.indexOf(':')))
          .trim()
          .toLowerCase(),
        text: line,
      });
  }
  return fields;
}

/** Relaxed header canonicalization (RFC 6376 3.4.2) of one field, without its CRLF. */
function relaxedField(name: string, text: string): string {
  const value = text
    .slice(text.indexOf(':') + 1)
    .replace(/\r\n/g, '')
    .replace(/[ \t]+/g, ' ')
    .trim();
  return `${name}:${value}`;
}

/** The sha256 of the relaxed body (RFC 6376 3.4.4), base64. */
export function relaxedBodyHash(body: Buffer): string {
  const lines = body.toString('latin1').split('\r\n');
  // Trailing WSP of each line dropped, runs of WSP one space; empty lines at the end ignored.
  for (let i = 0; i < lines.length; i++) lines[i] = lines[i]!.replace(/[ \t]+/g, ' ').replace(/ $/, '');
  let end = lines.length;
  while (end > 0 && lines[end - 1] === '') end--;
  const hash = createHash('sha256');
  for (let i = 0; i < end; i++) {
    hash.update(lines[i]!, 'latin1');
    hash.update('\r\n');
  }
  return hash.digest('base64');
}

const signWithPool = promisify(signAsync);

/** Base64 of a signature in lines of 72 characters (folding whitespace inside b= is ignored by verifiers). */
const foldBase64 = (b64: string) => b64.replace(/(.{72})(?=.)/g, '$1\r\n ');

/**
 * `raw` with a DKIM-Signature header field in front: the header fields of SIGNED_FIELDS that it has (each
 * from the bottom, as RFC 6376 5.4.2 picks instances) and its body. `now` is the t= tag's time.
 */
export async function dkimSign(raw: Buffer, key: DkimKey, now = new Date()): Promise<Buffer> {
  const { head, body } = split(raw);
  const fields = fieldsOf(head);
  const signed: string[] = [];
  const names: string[] = [];
  for (const name of SIGNED_FIELDS) {
    for (let i = fields.length - 1; i >= 0; i--) {
      const field = fields[i]!;
      if (field.name !== name) continue;
      signed.push(relaxedField(name, field.text));
      names.push(name);
      if (OVERSIGNED.has(name)) names.push(name);
      break;
    }
  }
  const header =
    `DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/relaxed; d=${key.domain}; s=${key.selector};\r\n` +
    ` t=${Math.floor(now.getTime() / 1000)}; h=${names.join(':')};\r\n` +
    ` bh=${relaxedBodyHash(body)};\r\n b=`;
  const data = `${signed.join('\r\n')}\r\n${relaxedField('dkim-signature', header)}`;
  const signature = await signWithPool('sha256', Buffer.from(data, 'latin1'), key.privateKey);
  return Buffer.concat([
    Buffer.from(`${header}${foldBase64(signature.toString('base64'))}\r\n`, 'latin1'),
    raw,
  ]);
}
