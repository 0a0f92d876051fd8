import { randomUUID } from 'node:crypto';
import {
  StoredAnnouncement,
  UserAccessChangedEvent,
  displayTicker,
  escapeHtml,
  formatDateTime,
} from '@irp/proto';

/**
 * Every mail the product sends, as pure functions of what it needs: a subject, an HTML part, a text part
 * and the headers (the subscriber mails' List-Unsubscribe, RFC 8058). Everything from outside is escaped.
 */

export interface MailContent {
  subject: string;
  html: string;
  text: string;
  headers?: Record<string, string>;
}

export interface MailStock {
  ticker: string;
  exchange: string;
  companyName: string;
  companyLogoUrl: string;
}

const company = (stock: MailStock) => stock.companyName || displayTicker(stock.ticker, stock.exchange);

/** The layout every mail shares: the company's logo and name on top, the body, a footer. */
function layout(stock: MailStock | null, body: string, footer: string): string {
  const logo =
    stock && /^https?:\/\//.test(stock.companyLogoUrl)
      ? `<img src="${escapeHtml(stock.companyLogoUrl)}" alt="${escapeHtml(company(stock))}" style="max-height:60px;max-width:240px">`
      : '';
  const header = stock
    ? `<div style="padding:16px 0;border-bottom:1px solid #ddd">${logo}<div style="font-size:18px;font-weight:600;margin-top:8px">${escapeHtml(company(stock))} <span style="color:#666;font-weight:400">(${escapeHtml(displayTicker(stock.ticker, stock.exchange))})</span></div></div>`
    : '';
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="margin:0;padding:0;background:#f5f5f5"><div style="max-width:600px;margin:0 auto;padding:16px;background:#fff;font-family:Arial,Helvetica,sans-serif;color:#222">
${header}
<div style="padding:16px 0">${body}</div>
<div style="padding-top:12px;border-top:1px solid #ddd;font-size:12px;color:#666">${footer}</div>
</div></body></html>`;
}

/** Where an announcement is read: its stored PDF through the portal, else the URL given (non-ASX). */
export function announcementLink(announcement: StoredAnnouncement, publicBaseUrl: string): string | null {
  if (announcement.pdfUrl) return `${publicBaseUrl}${announcement.pdfUrl}`;
  return /^https?:\/\//.test(announcement.remotePath) ? announcement.remotePath : null;
}

export const PRICE_SENSITIVE_MARK = 'Price sensitive';

function announcementBody(announcement: StoredAnnouncement, link: string | null) {
  const when = formatDateTime(announcement.date);
  const sensitive = announcement.priceSensitive
    ? `<span style="display:inline-block;padding:2px 6px;border-radius:3px;background:#c92a2a;color:#fff;font-size:12px;font-weight:600">${PRICE_SENSITIVE_MARK}</span> `
    : '';
  const html = `${sensitive}<h2 style="font-size:20px;margin:8px 0">${escapeHtml(announcement.headline)}</h2>
<p style="color:#555;margin:0 0 16px">${escapeHtml(when)} (Sydney time)</p>
${link ? `<p><a href="${escapeHtml(link)}" style="display:inline-block;padding:10px 16px;background:#1c7ed6;color:#fff;text-decoration:none;border-radius:4px">Read the announcement</a></p><p style="font-size:12px;color:#666">${escapeHtml(link)}</p>` : ''}`;
  const text = [
    announcement.priceSensitive ? `[${PRICE_SENSITIVE_MARK}]` : '',
    announcement.headline,
    `${when} (Sydney time)`,
    link ? `Read the announcement: ${link}` : '',
  ]
    .filter(Boolean)
    .join('\n');
  return { html, text };
}

const subjectOf = (stock: MailStock, announcement: StoredAnnouncement) =>
  `${company(stock)} (${stock.ticker}): ${announcement.priceSensitive ? `${PRICE_SENSITIVE_MARK}: ` : ''}${announcement.headline}`;

/**
 * An announcement to a subscriber: with the links to the preference page and the unsubscribe page, and the
 * one-click headers.
 */
export function announcementMail(input: {
  stock: MailStock;
  announcement: StoredAnnouncement;
  publicBaseUrl: string;
  unsubscribeUrl: string;
  oneClickUrl: string;
  preferencesUrl: string;
}): MailContent {
  const link = announcementLink(input.announcement, input.publicBaseUrl);
  const body = announcementBody(input.announcement, link);
  const why = `You receive this because you subscribed to announcements of ${company(input.stock)}.`;
  return {
    subject: subjectOf(input.stock, input.announcement),
    html: layout(
      input.stock,
      body.html,
      `${escapeHtml(why)} <a href="${escapeHtml(input.preferencesUrl)}">Choose what you receive</a> · <a href="${escapeHtml(input.unsubscribeUrl)}">Unsubscribe</a>`,
    ),
    text: `${body.text}\n\n--\n${why}\nChoose what you receive: ${input.preferencesUrl}\nUnsubscribe: ${input.unsubscribeUrl}\n`,
    headers: unsubscribeHeaders(input.oneClickUrl),
  };
}

/** A subscriber's own links in an announcement mail (subscriptionLinks). */
export interface SubscriberLinks {
  unsubscribeUrl: string;
  oneClickUrl: string;
  preferencesUrl: string;
}

/**
 * The announcement mail of one send for each of its subscribers: rendered once with stand-ins for the links,
 * then each subscriber's links put in where the stand-ins are (escaped in the HTML as the template escapes
 * them), so a 10,000-subscriber send renders the layout, escapes the headline and formats the date once. Gives
 * what announcementMail gives for the same links (templates.spec checks it).
 */
export function announcementMailRenderer(input: {
  stock: MailStock;
  announcement: StoredAnnouncement;
  publicBaseUrl: string;
}): (links: SubscriberLinks) => MailContent {
  const standIn = randomUUID().replace(/-/g, '');
  const keys = ['unsubscribeUrl', 'oneClickUrl', 'preferencesUrl'] as const;
  const marks = Object.fromEntries(
    keys.map((k, i) => [k, `irp${i}${standIn}`]),
  ) as unknown as SubscriberLinks;
  const rendered = announcementMail({ ...input, ...marks });
  const splitter = new RegExp(`(${keys.map((k) => marks[k]).join('|')})`);
  const linkOf = new Map(keys.map((k) => [marks[k], k]));
  const filler = (text: string, escape: boolean) => {
    const pieces = text.split(splitter);
    return (links: SubscriberLinks) => {
      let out = pieces[0];
      for (let i = 1; i < pieces.length; i += 2) {
        const url = links[linkOf.get(pieces[i]!)!];
        out += (escape ? escapeHtml(url) : url) + pieces[i + 1];
      }
      return out;
    };
  };
  const html = filler(rendered.html, true);
  const text = filler(rendered.text, false);
  const headers = Object.entries(rendered.headers ?? {}).map(
    ([name, value]) => [name, filler(value, false)] as const,
  );
  return (links) => ({
    subject: rendered.subject,
    html: html(links),
    text: text(links),
    headers: Object.fromEntries(headers.map(([name, fill]) => [name, fill(links)])),
  });
}

/** RFC 8058 one-click unsubscribe: the mail client POSTs `List-Unsubscribe=One-Click` to the URL. */
export const unsubscribeHeaders = (oneClickUrl: string): Record<string, string> => ({
  'List-Unsubscribe': `<${oneClickUrl}>`,
  'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
});

/** Send Confirmation Email: the announcement as subscribers will see it, to the company's confirmation emails. */
export function confirmationMail(input: {
  stock: MailStock;
  announcement: StoredAnnouncement;
  publicBaseUrl: string;
}): MailContent {
  const link = announcementLink(input.announcement, input.publicBaseUrl);
  const body = announcementBody(input.announcement, link);
  const why = `This confirmation was sent to ${company(input.stock)}'s confirmation emails from IR Portal.`;
  return {
    subject: `Confirmation: ${subjectOf(input.stock, input.announcement)}`,
    html: layout(input.stock, body.html, escapeHtml(why)),
    text: `${body.text}\n\n--\n${why}\n`,
  };
}

/** A new announcement was detected: to the stock's announcement notification emails. */
export function notificationMail(input: {
  stock: MailStock;
  announcement: StoredAnnouncement;
  publicBaseUrl: string;
  stockPageUrl: string;
}): MailContent {
  const link = announcementLink(input.announcement, input.publicBaseUrl);
  const body = announcementBody(input.announcement, link);
  const why = `IR Portal detected this announcement of ${company(input.stock)}. Manage it: ${input.stockPageUrl}`;
  return {
    subject: `New announcement: ${subjectOf(input.stock, input.announcement)}`,
    html: layout(
      input.stock,
      body.html,
      `IR Portal detected this announcement of ${escapeHtml(company(input.stock))}. <a href="${escapeHtml(input.stockPageUrl)}">Open it in IR Portal</a>`,
    ),
    text: `${body.text}\n\n--\n${why}\n`,
  };
}

/** Double opt-in: the single-use link that confirms a subscription. */
export function subscriptionConfirmMail(input: {
  stock: MailStock;
  confirmUrl: string;
  unsubscribeUrl: string;
  oneClickUrl: string;
  ttlHours: number;
}): MailContent {
  const name = company(input.stock);
  const html = `<h2 style="font-size:20px;margin:8px 0">Confirm your subscription</h2>
<p>Please confirm that you want to receive announcements of ${escapeHtml(name)} by email.</p>
<p><a href="${escapeHtml(input.confirmUrl)}" style="display:inline-block;padding:10px 16px;background:#1c7ed6;color:#fff;text-decoration:none;border-radius:4px">Confirm subscription</a></p>
<p style="font-size:12px;color:#666">The link works once and for ${input.ttlHours} hours. If you did not ask for this, ignore this mail: nothing will be sent to you.</p>`;
  return {
    subject: `Confirm your subscription to ${name} announcements`,
    html: layout(
      input.stock,
      html,
      `<a href="${escapeHtml(input.unsubscribeUrl)}">Do not send me anything</a>`,
    ),
    text: `Please confirm that you want to receive announcements of ${name} by email:\n${input.confirmUrl}\n\nThe link works once and for ${input.ttlHours} hours. If you did not ask for this, ignore this mail.\n\n--\nDo not send me anything: ${input.unsubscribeUrl}\n`,
    headers: unsubscribeHeaders(input.oneClickUrl),
  };
}

export const TEST_EMAIL_SUBJECT = 'IR Portal test email';

/** The system settings' test email. */
export function systemTestMail(sentBy: string): MailContent {
  const line = `This is a test email from IR Portal, sent by ${sentBy}. Mail delivery works.`;
  return {
    subject: TEST_EMAIL_SUBJECT,
    html: layout(null, `<p>${escapeHtml(line)}</p>`, 'IR Portal system settings'),
    text: `${line}\n`,
  };
}

/** An error staff must hear about (to the system settings' error email). */
export function errorMail(subject: string, message: string): MailContent {
  return {
    subject: `IR Portal: ${subject}`,
    html: layout(
      null,
      `<pre style="white-space:pre-wrap;font-family:inherit">${escapeHtml(message)}</pre>`,
      'IR Portal',
    ),
    text: `${message}\n`,
  };
}

/**
 * An announcement as an email-marketing campaign's content: the provider's template wraps it and adds the
 * list's own unsubscribe footer. With no announcement yet, a sample that says so (test sends).
 */
export function campaignContent(input: {
  stock: MailStock;
  announcement: StoredAnnouncement | null;
  publicBaseUrl: string;
}): MailContent & { title: string } {
  const { stock, announcement } = input;
  if (!announcement) {
    const line = `${company(stock)} has no announcements yet: this is a sample of its announcement campaigns.`;
    return {
      subject: `${company(stock)} (${stock.ticker}): sample announcement`,
      title: `${stock.ticker} sample announcement`,
      html: layout(stock, `<p>${escapeHtml(line)}</p>`, ''),
      text: `${line}\n`,
    };
  }
  const body = announcementBody(announcement, announcementLink(announcement, input.publicBaseUrl));
  return {
    subject: subjectOf(stock, announcement),
    title: `${stock.ticker} ${formatDateTime(announcement.date)} ${announcement.headline}`.slice(0, 100),
    html: layout(stock, body.html, ''),
    text: `${body.text}\n`,
  };
}

// ---------------------------------------------------------------------------------------------------
// Announcement comments

const paragraphs = (text: string) => `<div style="white-space:pre-wrap">${escapeHtml(text)}</div>`;
const quoted = (text: string) =>
  `<blockquote style="margin:8px 0;padding:8px 12px;border-left:3px solid #ccc;color:#444;white-space:pre-wrap">${escapeHtml(text)}</blockquote>`;

/** A new comment: to the stock's moderator emails, with the flags and the link to the response page. */
export function commentModerationMail(input: {
  stock: MailStock;
  headline: string;
  name: string;
  email: string;
  comment: string;
  flags: Array<{ reason: string; match: string }>;
  responseUrl: string;
}): MailContent {
  const { stock } = input;
  const flagged = input.flags.length > 0;
  const flagsHtml = flagged
    ? `<div style="margin:12px 0;padding:8px 12px;background:#fff4e6;border:1px solid #ffa94d;border-radius:4px"><strong>Flagged for review</strong><ul style="margin:4px 0 0;padding-left:20px">${input.flags
        .map((f) => `<li>${escapeHtml(f.reason)} (“${escapeHtml(f.match)}”)</li>`)
        .join('')}</ul></div>`
    : '';
  const html = `<p>${escapeHtml(input.name)} &lt;${escapeHtml(input.email)}&gt; commented on <strong>${escapeHtml(input.headline)}</strong>:</p>
${quoted(input.comment)}
${flagsHtml}
<p><a href="${escapeHtml(input.responseUrl)}" style="display:inline-block;padding:10px 16px;background:#1c7ed6;color:#fff;text-decoration:none;border-radius:4px">Respond</a></p>
<p style="font-size:12px;color:#666">${escapeHtml(input.responseUrl)}</p>`;
  const text = [
    `${input.name} <${input.email}> commented on "${input.headline}":`,
    '',
    input.comment,
    '',
    ...(flagged
      ? ['Flagged for review:', ...input.flags.map((f) => `- ${f.reason} ("${f.match}")`), '']
      : []),
    `Respond: ${input.responseUrl}`,
  ].join('\n');
  return {
    subject: `${flagged ? '[Flagged] ' : ''}New comment on ${company(stock)} (${stock.ticker}): ${input.headline}`,
    html: layout(
      stock,
      html,
      `You receive this as a moderator of ${escapeHtml(company(stock))}'s announcement comments.`,
    ),
    text: `${text}\n\n--\nYou receive this as a moderator of ${company(stock)}'s announcement comments.\n`,
  };
}

export const DEFAULT_COMMENT_TEMPLATE = `Dear {name},

Thank you for your question about "{headline}". {company} responds below.`;

/** The stock's announcement comment template with its fields filled; unknown braces are left as written. */
export function fillCommentTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => values[key] ?? whole);
}

/**
 * A public response: to the commenter, in the stock's comment template, with the answer. The commenter's
 * address was never confirmed, so the mail quotes nothing they typed but their name (100 characters at
 * most): whoever posts a comment under someone else's address cannot have the company mail their text to
 * it. `{comment}` in a template is left empty; the question is on the response's widget page.
 */
export function commentResponseMail(input: {
  stock: MailStock;
  template: string;
  headline: string;
  name: string;
  response: string;
}): MailContent {
  const { stock } = input;
  const values = {
    name: input.name,
    headline: input.headline,
    comment: '',
    response: input.response,
    company: company(stock),
    ticker: stock.ticker,
  };
  const template = input.template.trim() ? input.template : DEFAULT_COMMENT_TEMPLATE;
  const intro = fillCommentTemplate(template, values);
  // A template that places {response} itself decides where the answer goes; otherwise it follows.
  const placesResponse = /\{response\}/.test(template);
  const html = `${paragraphs(intro)}
${placesResponse ? '' : `<h3 style="font-size:15px;margin:16px 0 4px">Our response</h3>${paragraphs(input.response)}`}`;
  const text = placesResponse ? intro : `${intro}\n\nOur response:\n${input.response}`;
  const why = `You receive this because you commented on an announcement of ${company(stock)}.`;
  return {
    subject: `${company(stock)} responded to your comment on ${input.headline}`,
    html: layout(stock, html, escapeHtml(why)),
    text: `${text}\n\n--\n${why}\n`,
  };
}

/**
 * A user's password or roles changed (issue 34: `user.access-changed`): who did it and when, what to do if
 * it was not expected. Nothing secret: no password, no link to follow.
 */
export function securityNoticeMail(notice: UserAccessChangedEvent, publicBaseUrl: string): MailContent {
  const when = `${formatDateTime(notice.at)} Sydney time`;
  const who = notice.byTheUser ? 'You' : notice.by;
  const what = [
    notice.passwordChanged
      ? notice.oneTimePassword
        ? `${who} set a new password for your IR Portal account; you will be asked to choose your own when you next sign in`
        : `${who} changed your IR Portal password`
      : undefined,
    notice.rolesChanged ? `${who} changed what your IR Portal account may see and do` : undefined,
  ].filter((line): line is string => Boolean(line));
  const lines = [
    ...what.map((line) => `${line} (${when}).`),
    'If you did not expect this, tell your IR Portal administrator at once: someone may be using your account.',
    `IR Portal: ${publicBaseUrl}`,
  ];
  return {
    subject: notice.passwordChanged
      ? 'Your IR Portal password was changed'
      : 'Your IR Portal access was changed',
    html: layout(null, lines.map((line) => `<p>${escapeHtml(line)}</p>`).join(''), 'IR Portal'),
    text: `${lines.join('\n\n')}\n`,
  };
}
