import { simpleParser, type Attachment } from 'mailparser';
import { bounceKindOf, isComplaintFeedback, type MailEventKind } from './bounce-rules';

/** One recipient's outcome in a report that is a bounce or a complaint. */
export interface MailReport {
  kind: MailEventKind;
  source: 'dsn' | 'arf';
  /** The recipient the report names (Final-Recipient, Original-Rcpt-To): for the log, never trusted. */
  recipient?: string;
  /** What the receiving side said: the DSN's Status and Diagnostic-Code, or the ARF's Feedback-Type. */
  detail: string;
}

/** A report read from an inbound mail: its bounces and complaints, and what it tells of the original mail. */
export interface ReadReport {
  reports: MailReport[];
  /**
   * The original mail's envelope sender (the ARF's Original-Mail-From, or the Return-Path of the returned
   * headers) and its List-Unsubscribe header, when the report carries them: how a complaint sent to the
   * complaints mailbox names the delivery or the subscriber.
   */
  original: { returnPath?: string; listUnsubscribe?: string };
}

const STATUS_TYPES = ['message/delivery-status', 'message/global-delivery-status'];
const FEEDBACK_TYPES = ['message/feedback-report'];
const ORIGINAL_TYPES = ['message/rfc822', 'text/rfc822-headers', 'message/global', 'message/global-headers'];

/** A header block (a DSN's per-message or per-recipient fields, an ARF's fields) by lower-case name. */
async function fieldsOf(block: string): Promise<Map<string, string>> {
  // mailparser reads a header block as the headers of a message without a body: unfolded, one value a name.
  const parsed = await simpleParser(Buffer.from(`${block.trim()}\r\n\r\n`));
  const fields = new Map<string, string>();
  for (const { key, line } of parsed.headerLines) {
    if (fields.has(key)) continue;
    fields.set(
      key,
      line
        .slice(line.indexOf(':') + 1)
        .replace(/\r?\n[ \t]+/g, ' ')
        .trim(),
    );
  }
  return fields;
}

/** The address of an RFC 3464 address field ("rfc822; someone@example.com") or of "<someone@example.com>". */
function addressOf(field: string | undefined): string | undefined {
  if (!field) return undefined;
  const value = field.includes(';') ? field.slice(field.indexOf(';') + 1) : field;
  const address = value.trim().replace(/^<|>$/g, '').trim();
  return address || undefined;
}

const partOf = (attachments: Attachment[], types: string[]) =>
  attachments.find((a) => types.includes(a.contentType.toLowerCase()));

/**
 * Reads an inbound mail as a delivery status notification (RFC 3464: each per-recipient block whose Action
 * is `failed` is a hard or soft bounce by its Status; `delayed` is a warning, not a bounce) or an ARF feedback
 * report (RFC 5965: a complaint unless its type is not-spam or auth-failure). The MIME is mailparser's;
 * undefined when the mail is neither (an auto-reply, a spam to the bounce address).
 */
export async function readMailReport(raw: Buffer): Promise<ReadReport | undefined> {
  const mail = await simpleParser(raw, { keepDeliveryStatus: true });
  const type = mail.headers.get('content-type') as
    { value: string; params: Record<string, string> } | undefined;
  if (type?.value.toLowerCase() !== 'multipart/report') return undefined;
  const reportType = (type.params['report-type'] ?? '').toLowerCase();
  const original = await originalOf(partOf(mail.attachments, ORIGINAL_TYPES));

  if (reportType === 'delivery-status' || reportType === 'global-delivery-status') {
    const status = partOf(mail.attachments, STATUS_TYPES);
    if (!status) return undefined;
    // The first block is about the message, each one after it about one recipient.
    const [, ...recipients] = status.content.toString('utf8').split(/\r?\n[ \t]*\r?\n/);
    const reports: MailReport[] = [];
    for (const block of recipients) {
      if (!block.trim()) continue;
      const fields = await fieldsOf(block);
      if (fields.get('action')?.toLowerCase() !== 'failed') continue;
      const statusCode = fields.get('status');
      const diagnostic = fields.get('diagnostic-code');
      reports.push({
        kind: bounceKindOf(statusCode ?? diagnostic),
        source: 'dsn',
        recipient: addressOf(fields.get('final-recipient') ?? fields.get('original-recipient')),
        detail: [statusCode, diagnostic].filter(Boolean).join(' ').slice(0, 500),
      });
    }
    return { reports, original };
  }

  if (reportType === 'feedback-report') {
    const feedback = partOf(mail.attachments, FEEDBACK_TYPES);
    if (!feedback) return undefined;
    const fields = await fieldsOf(feedback.content.toString('utf8'));
    const feedbackType = fields.get('feedback-type') ?? 'abuse';
    const reports: MailReport[] = isComplaintFeedback(feedbackType)
      ? [
          {
            kind: 'complaint',
            source: 'arf',
            recipient: addressOf(fields.get('original-rcpt-to')),
            detail: `Feedback-Type: ${feedbackType}`.slice(0, 500),
          },
        ]
      : [];
    return {
      reports,
      original: {
        ...original,
        returnPath: addressOf(fields.get('original-mail-from')) ?? original.returnPath,
      },
    };
  }
  return undefined;
}

/** The original mail's Return-Path and List-Unsubscribe, from the copy or the headers a report returns. */
async function originalOf(part: Attachment | undefined): Promise<ReadReport['original']> {
  if (!part) return {};
  const text = part.content.toString('utf8');
  const end = text.search(/\r?\n\r?\n/);
  const fields = await fieldsOf(end < 0 ? text : text.slice(0, end));
  return {
    returnPath: addressOf(fields.get('return-path')),
    listUnsubscribe: fields.get('list-unsubscribe'),
  };
}
