import net from 'node:net';
import type { SinkMail } from './smtp-sink';

/** A received mail's header block, as a report quotes it (text/rfc822-headers). */
function headerBlock(mail: SinkMail): string {
  if (mail.raw) {
    const raw = mail.raw.toString('utf8');
    const end = raw.search(/\r?\n\r?\n/);
    return (end < 0 ? raw : raw.slice(0, end)).replace(/\r?\n/g, '\r\n');
  }
  return Object.entries(mail.rawHeaders)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\r\n');
}

const boundary = () => `=_report_${Math.random().toString(36).slice(2)}`;

/**
 * A delivery status notification (RFC 3464) about `mail`, as the receiving side's MTA sends it to the mail's
 * return path: a human part, the per-message and per-recipient fields, and the original's headers.
 */
export function deliveryStatusReport(
  mail: SinkMail,
  report: { status: string; diagnostic?: string; action?: 'failed' | 'delayed'; reportingMta?: string },
): Buffer {
  const b = boundary();
  const mta = report.reportingMta ?? 'mx.sink.example';
  const recipient = mail.to[0] ?? '';
  return Buffer.from(
    [
      `From: Mail Delivery System <MAILER-DAEMON@${mta}>`,
      `To: <${mail.returnPath}>`,
      `Subject: ${report.action === 'delayed' ? 'Delayed Mail (still being retried)' : 'Undelivered Mail Returned to Sender'}`,
      `Date: ${new Date().toUTCString()}`,
      `Message-ID: <${Math.random().toString(36).slice(2)}@${mta}>`,
      'Auto-Submitted: auto-replied',
      'MIME-Version: 1.0',
      `Content-Type: multipart/report; report-type=delivery-status; boundary="${b}"`,
      '',
      `--${b}`,
      'Content-Type: text/plain; charset=us-ascii',
      '',
      `This is the mail system at host ${mta}.`,
      '',
      `I'm sorry to have to inform you that your message could not be delivered to ${recipient}.`,
      `--${b}`,
      'Content-Type: message/delivery-status',
      '',
      `Reporting-MTA: dns; ${mta}`,
      `Arrival-Date: ${new Date().toUTCString()}`,
      '',
      `Final-Recipient: rfc822; ${recipient}`,
      `Original-Recipient: rfc822;${recipient}`,
      `Action: ${report.action ?? 'failed'}`,
      `Status: ${report.status}`,
      ...(report.diagnostic ? [`Diagnostic-Code: smtp; ${report.diagnostic}`] : []),
      '',
      `--${b}`,
      'Content-Type: text/rfc822-headers',
      '',
      headerBlock(mail),
      '',
      `--${b}--`,
      '',
    ].join('\r\n'),
  );
}

/**
 * An ARF feedback report (RFC 5965) about `mail`, as a mailbox provider's feedback loop sends it when the
 * recipient marks the mail as spam: the original quoted whole when the sink kept its bytes.
 */
export function feedbackReport(mail: SinkMail, report: { feedbackType?: string; to: string }): Buffer {
  const b = boundary();
  const recipient = mail.to[0] ?? '';
  return Buffer.from(
    [
      'From: <feedback@fbl.sink.example>',
      `To: <${report.to}>`,
      'Subject: FW: Complaint',
      `Date: ${new Date().toUTCString()}`,
      `Message-ID: <${Math.random().toString(36).slice(2)}@fbl.sink.example>`,
      'MIME-Version: 1.0',
      `Content-Type: multipart/report; report-type=feedback-report; boundary="${b}"`,
      '',
      `--${b}`,
      'Content-Type: text/plain; charset=us-ascii',
      '',
      'This is an email abuse report for an email message received from your IP address.',
      `--${b}`,
      'Content-Type: message/feedback-report',
      '',
      `Feedback-Type: ${report.feedbackType ?? 'abuse'}`,
      'User-Agent: SinkFBL/1.0',
      'Version: 1',
      `Original-Mail-From: <${mail.returnPath}>`,
      `Original-Rcpt-To: <${recipient}>`,
      `Arrival-Date: ${new Date().toUTCString()}`,
      '',
      `--${b}`,
      mail.raw ? 'Content-Type: message/rfc822' : 'Content-Type: text/rfc822-headers',
      '',
      mail.raw ? mail.raw.toString('utf8').replace(/\r?\n/g, '\r\n').replace(/\r\n$/, '') : headerBlock(mail),
      '',
      `--${b}--`,
      '',
    ].join('\r\n'),
  );
}

/**
 * Sends a finished message over SMTP (smtp://host:port, no TLS, no AUTH), one command at a time, as a
 * reporting server does to the portal's bounce listener; resolves with the reply to the message, rejects with
 * the first reply that is not a success (its text says which command).
 */
export async function sendRawMail(
  url: string,
  envelope: { from: string; to: string[] },
  raw: Buffer,
): Promise<string> {
  const { hostname, port } = new URL(url);
  const socket = net.connect(Number(port), hostname);
  socket.setEncoding('utf8');
  let buffered = '';
  const waiting: Array<(reply: string) => void> = [];
  socket.on('data', (chunk: string) => {
    buffered += chunk;
    let end: number;
    // A reply ends with a line whose code is followed by a space (or nothing).
    while ((end = buffered.search(/^\d{3}(?: [^\r\n]*)?\r\n/m)) >= 0) {
      const lineEnd = buffered.indexOf('\r\n', end) + 2;
      const reply = buffered.slice(0, lineEnd).trim();
      buffered = buffered.slice(lineEnd);
      waiting.shift()?.(reply);
    }
  });
  const closed = new Promise<never>((_, reject) => {
    socket.once('error', reject);
    socket.once('close', () => reject(new Error('the SMTP connection closed')));
  });
  const next = () => Promise.race([new Promise<string>((resolve) => waiting.push(resolve)), closed]);
  const expect = async (command: string | undefined, ok: RegExp) => {
    const answer = next();
    if (command !== undefined) socket.write(`${command}\r\n`);
    const reply = await answer;
    if (!ok.test(reply)) throw new Error(`${command ?? 'greeting'}: ${reply}`);
    return reply;
  };
  try {
    await expect(undefined, /^220/);
    await expect('EHLO mx.sink.example', /^250/);
    await expect(`MAIL FROM:<${envelope.from}>`, /^250/);
    for (const to of envelope.to) await expect(`RCPT TO:<${to}>`, /^25[01]/);
    await expect('DATA', /^354/);
    const body = raw.toString('utf8').replace(/\r?\n/g, '\r\n').replace(/^\./gm, '..');
    const reply = await expect(`${body}${body.endsWith('\r\n') ? '' : '\r\n'}.`, /^250/);
    socket.write('QUIT\r\n');
    return reply;
  } finally {
    socket.end();
    closed.catch(() => undefined);
  }
}
