import { randomUUID } from 'node:crypto';
import addressparser from 'nodemailer/lib/addressparser';
import { encodeWords, foldLines, isPlainText } from 'nodemailer/lib/mime-funcs';
import type { MailContent } from './templates';

/**
 * Our mails as finished RFC 5322 messages, built in one pass: a multipart/alternative of the text and HTML
 * parts, each base64 (the bytes go through Buffer's native encoder, not a per-character transform), and
 * headers encoded with nodemailer's own RFC 2047 helpers. The sender hands the bytes to nodemailer's pooled
 * SMTP transport as a raw message, so per mail it pays for SMTP, not for composing MIME through streams;
 * the bench's profile found composition the larger half of nodemailer's cost per mail.
 */

export interface MailAddress {
  name: string;
  address: string;
}

/** The first mailbox of an address field ('IR Portal <a@b.example>'). */
export function parseMailbox(value: string): MailAddress {
  const [first] = addressparser(value, { flatten: true }) as MailAddress[];
  if (!first?.address) throw new Error(`not an email address: ${value}`);
  return { name: first.name ?? '', address: first.address };
}

/**
 * True when an address can go into a header and the SMTP envelope as it is (printable ASCII, no
 * characters that end or split an address). Anything else is left to nodemailer's full composer, which
 * knows IDN and SMTPUTF8.
 */
export const isPlainAddress = (address: string): boolean =>
  /^[\x21-\x7e]+$/.test(address) && !/[<>,;"]/.test(address);

const ATEXT_PHRASE = /^[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~ ]*$/;

/** 'Name <address>' with the name quoted or RFC 2047 encoded as it needs. */
export function formatMailbox({ name, address }: MailAddress): string {
  if (!name) return address;
  let display: string;
  if (!isPlainText(name)) display = encodeWords(name, 'Q', 52);
  else if (ATEXT_PHRASE.test(name)) display = name;
  else display = `"${name.replace(/["\\]/g, '\\$&')}"`;
  return `${display} <${address}>`;
}

/** A header line, folded at 76 characters, its value RFC 2047 encoded when it is not plain ASCII. */
function header(name: string, value: string, encode = true): string {
  const safe = value.replace(/[\r\n]+/g, ' ');
  const encoded = encode && !isPlainText(safe) ? encodeWords(safe, 'Q', 52) : safe;
  return foldLines(`${name}: ${encoded}`, 76).trimEnd();
}

/** Base64 of a UTF-8 string in lines of 76 characters (sliced: a regular expression cost more than the encoding). */
function base64Lines(text: string): string {
  const encoded = Buffer.from(text, 'utf8').toString('base64');
  if (encoded.length <= 76) return encoded;
  const lines: string[] = [];
  for (let at = 0; at < encoded.length; at += 76) lines.push(encoded.slice(at, at + 76));
  return lines.join('\r\n');
}

/** RFC 5322 date in UTC, as nodemailer writes it. */
const rfc5322Date = (date: Date) => date.toUTCString().replace(/GMT/, '+0000');

export interface ComposedMail {
  messageId: string;
  raw: Buffer;
}

/**
 * The finished message of one mail. `from` and `to` are mailboxes already checked; headers of the content
 * (List-Unsubscribe, List-Unsubscribe-Post) are added as given.
 */
export function composeMail(input: {
  from: MailAddress;
  to: string;
  replyTo?: string;
  content: MailContent;
  date?: Date;
}): ComposedMail {
  const domain = input.from.address.split('@')[1] || 'localhost';
  const messageId = `<${randomUUID()}@${domain}>`;
  // randomUUID draws on Node's cached entropy; randomBytes asked the kernel for every mail. The boundary only has
  // to differ from every line of the parts, which are base64 (no '-' or '_' in its alphabet).
  const boundary = `--_irp_${randomUUID().replace(/-/g, '')}`;
  const lines = [
    header('From', formatMailbox(input.from), false),
    header('To', input.to, false),
    ...(input.replyTo ? [header('Reply-To', input.replyTo, false)] : []),
    header('Subject', input.content.subject),
    header('Message-ID', messageId, false),
    header('Date', rfc5322Date(input.date ?? new Date()), false),
    ...Object.entries(input.content.headers ?? {}).map(([name, value]) => header(name, value)),
    'MIME-Version: 1.0',
    `Content-Type: multipart/alternative;\r\n boundary="${boundary}"`,
    '',
    `--${boundary}`,
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: base64',
    '',
    base64Lines(input.content.text),
    `--${boundary}`,
    'Content-Type: text/html; charset=utf-8',
    'Content-Transfer-Encoding: base64',
    '',
    base64Lines(input.content.html),
    `--${boundary}--`,
    '',
  ];
  return { messageId, raw: Buffer.from(lines.join('\r\n'), 'utf8') };
}
