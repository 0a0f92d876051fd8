import { randomUUID } from 'node:crypto';
import { DEMO_PROVIDER_ACCOUNTS } from '@irp/proto';
import { IncomingMessage, ServerResponse } from 'node:http';
import nodemailer from 'nodemailer';
import {
  ErrorAnswer,
  FaultRuleInput,
  FaultRules,
  HttpError,
  RouteContext,
  StandInRoute,
  readJson,
  sendJson,
  sendText,
  startStandInServer,
} from '../kit';

/**
 * A local stand-in of both email-marketing providers' HTTP APIs (vendor-apis.md), on 127.0.0.1: the
 * Mailchimp-type API under `/3.0` and the Campaign-Monitor-type API under `/api/v3.3`, with their auth,
 * shapes, error bodies and a 10-connections-per-key limit (429). A test send or a send delivers real mail
 * through the SMTP server given (maildev in `make up`, a test's sink), so a campaign can be read like any
 * other mail. Controls under `/standin/` let tests force failures and inspect what was created.
 */

export interface StandInList {
  provider: 'mailchimp' | 'campaign-monitor';
  /** The API key that owns the list. */
  apiKey: string;
  listId: string;
  /** Campaign Monitor: the client the list belongs to. */
  clientId?: string;
  members: string[];
  /** Saved segments: id -> members (a subset of the list's). */
  segments?: Record<string, string[]>;
}

export interface StandInCampaign {
  id: string;
  provider: 'mailchimp' | 'campaign-monitor';
  apiKey: string;
  listId: string;
  segmentId: string | null;
  templateId: string | null;
  subject: string;
  title: string;
  fromName: string;
  replyTo: string;
  html: string;
  status: 'save' | 'sending' | 'sent';
  testSentTo: string[];
  sentTo: string[];
}

/**
 * Demo data of `make up`: a Mailchimp-type key with two lists and a segment, a Campaign-Monitor-type client;
 * the accounts the email-marketing demo seed uses (proto's DEMO_PROVIDER_ACCOUNTS).
 */
export const DEMO_PROVIDER_LISTS: StandInList[] = [
  {
    provider: 'mailchimp',
    ...DEMO_PROVIDER_ACCOUNTS.mailchimp,
    members: ['investor.one@example.com', 'investor.two@example.com', 'investor.three@example.com'],
    segments: { '101': ['investor.one@example.com', 'investor.two@example.com'] },
  },
  {
    provider: 'mailchimp',
    apiKey: DEMO_PROVIDER_ACCOUNTS.mailchimp.apiKey,
    listId: 'big-list',
    members: Array.from({ length: 8 }, (_, i) => `holder${i + 1}@example.com`),
  },
  {
    provider: 'campaign-monitor',
    ...DEMO_PROVIDER_ACCOUNTS.campaignMonitor,
    members: [
      'shareholder.a@example.com',
      'shareholder.b@example.com',
      'shareholder.c@example.com',
      'shareholder.d@example.com',
    ],
  },
];

/** Templates known to every key: the campaign's body goes where the template says. */
const TEMPLATE = (
  body: string,
  subject: string,
) => `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${subject}</title></head>
<body style="font-family:Arial,sans-serif"><div class="template-body">${body}</div>
<p style="font-size:12px;color:#666">You are on this list because you asked for these updates. <a href="#unsubscribe">Unsubscribe</a></p></body></html>`;

export interface ProvidersStandInOptions {
  port?: number;
  host?: string;
  /** Where sent campaigns are mailed; null: not mailed (recorded only). */
  smtp?: { host: string; port: number } | null;
  lists?: StandInList[];
  /** Requests one key may have open at once before 429 (Mailchimp allows 10). */
  maxConcurrentPerKey?: number;
  mailFrom?: string;
  /** Each API answer waits this long (tests of the concurrency limit). */
  latencyMs?: number;
  /** Fault rules set at start (the kit's; main.ts reads STANDIN_FAULTS). */
  faults?: FaultRuleInput[];
}

export interface ProvidersStandIn {
  url: string;
  port: number;
  campaigns(): StandInCampaign[];
  addList(list: StandInList): void;
  /** The next `times` API requests answer `status` in the vendor's error shape (429 with Retry-After). */
  failNext(times: number, status: number, retryAfterSeconds?: number): void;
  /** API requests answered so far (tests of retries). */
  requests(): number;
  /** The kit's fault rules (routes `mailchimp` and `campaign-monitor`, group `api`). */
  faults: FaultRules;
  close(): Promise<void>;
}

export async function startProvidersStandIn(
  options: ProvidersStandInOptions = {},
): Promise<ProvidersStandIn> {
  const lists = new Map<string, StandInList>();
  for (const list of options.lists ?? DEMO_PROVIDER_LISTS) lists.set(`${list.provider}:${list.listId}`, list);
  const campaigns = new Map<string, StandInCampaign>();
  const open = new Map<string, number>();
  const maxOpen = options.maxConcurrentPerKey ?? 10;
  const transport = options.smtp
    ? nodemailer.createTransport({
        host: options.smtp.host,
        port: options.smtp.port,
        secure: false,
        ignoreTLS: true,
        pool: true,
      })
    : null;
  let url = '';

  const keys = () => new Set([...lists.values()].map((l) => `${l.provider}:${l.apiKey}`));

  const readBody = readJson;
  const send = (res: ServerResponse, status: number, body: unknown, contentType?: string) =>
    contentType
      ? sendText(res, status, String(body), contentType)
      : sendJson(res, status, body, {}, 'application/json');

  /** The key of a request: Mailchimp sends `anything:KEY`, Campaign Monitor `KEY:x`. */
  function keyOf(req: IncomingMessage, provider: StandInList['provider']): string {
    const m = /^Basic (.+)$/.exec(req.headers.authorization ?? '');
    const [user, pass] = m ? Buffer.from(m[1], 'base64').toString('utf8').split(':') : ['', ''];
    const key = provider === 'mailchimp' ? pass : user;
    if (!key || !keys().has(`${provider}:${key}`)) {
      throw new HttpError(
        401,
        provider === 'mailchimp'
          ? 'Your request did not include an API key, or the key is not valid.'
          : 'Invalid API key',
        provider === 'mailchimp' ? 401 : 50,
      );
    }
    return key;
  }

  function listOf(provider: StandInList['provider'], apiKey: string, listId: string): StandInList {
    const list = lists.get(`${provider}:${listId}`);
    if (!list || list.apiKey !== apiKey)
      throw new HttpError(
        404,
        `The requested list ${listId} was not found.`,
        provider === 'mailchimp' ? 404 : 101,
      );
    return list;
  }

  async function mail(campaign: StandInCampaign, to: string[], test: boolean) {
    if (!transport) return;
    for (const address of to) {
      await transport.sendMail({
        from: `${campaign.fromName || 'Campaign'} <${options.mailFrom ?? 'campaigns@provider.example'}>`,
        replyTo: campaign.replyTo || undefined,
        to: address,
        subject: test ? `[Test] ${campaign.subject}` : campaign.subject,
        html: campaign.html,
      });
    }
  }

  const recipientsOf = (campaign: StandInCampaign) => {
    const list = lists.get(`${campaign.provider}:${campaign.listId}`)!;
    return campaign.segmentId ? (list.segments?.[campaign.segmentId] ?? []) : list.members;
  };
  const previewUrlOf = (id: string) => `${url}/standin/campaigns/${id}/preview`;

  // ---- Mailchimp-type ----
  async function mailchimp(req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams) {
    const key = keyOf(req, 'mailchimp');
    let m: RegExpExecArray | null;
    if (req.method === 'GET' && (m = /^\/lists\/([^/]+)$/.exec(path))) {
      const list = listOf('mailchimp', key, decodeURIComponent(m[1]));
      void query;
      return send(res, 200, { id: list.listId, stats: { member_count: list.members.length } });
    }
    if (req.method === 'POST' && path === '/campaigns') {
      const body = (await readBody(req)) as {
        type?: string;
        recipients?: { list_id?: string; segment_opts?: { saved_segment_id?: number | string } };
        settings?: {
          subject_line?: string;
          title?: string;
          from_name?: string;
          reply_to?: string;
          template_id?: number | string;
        };
      };
      if (body.type !== 'regular') throw new HttpError(400, 'The campaign type must be regular.');
      const list = listOf('mailchimp', key, String(body.recipients?.list_id ?? ''));
      const segment = body.recipients?.segment_opts?.saved_segment_id;
      if (segment !== undefined && !list.segments?.[String(segment)])
        throw new HttpError(400, `The saved segment ${segment} does not exist on list ${list.listId}.`);
      if (!body.settings?.subject_line) throw new HttpError(400, 'The campaign needs a subject line.');
      if (!body.settings?.reply_to) throw new HttpError(400, 'The campaign needs a reply-to address.');
      const id = randomUUID().replace(/-/g, '').slice(0, 10);
      const campaign: StandInCampaign = {
        id,
        provider: 'mailchimp',
        apiKey: key,
        listId: list.listId,
        segmentId: segment !== undefined ? String(segment) : null,
        templateId: body.settings.template_id !== undefined ? String(body.settings.template_id) : null,
        subject: body.settings.subject_line,
        title: body.settings.title ?? '',
        fromName: body.settings.from_name ?? '',
        replyTo: body.settings.reply_to,
        html: '',
        status: 'save',
        testSentTo: [],
        sentTo: [],
      };
      campaigns.set(id, campaign);
      return send(res, 200, {
        id,
        web_id: 1000 + campaigns.size,
        status: 'save',
        archive_url: previewUrlOf(id),
        long_archive_url: previewUrlOf(id),
      });
    }
    const campaign = (id: string) => {
      const c = campaigns.get(id);
      if (!c || c.provider !== 'mailchimp' || c.apiKey !== key)
        throw new HttpError(404, `The requested campaign ${id} was not found.`);
      return c;
    };
    if (req.method === 'PUT' && (m = /^\/campaigns\/([^/]+)\/content$/.exec(path))) {
      const c = campaign(m[1]);
      const body = (await readBody(req)) as {
        html?: string;
        template?: { id?: number | string; sections?: { body?: string } };
      };
      c.html = body.template ? TEMPLATE(body.template.sections?.body ?? '', c.subject) : (body.html ?? '');
      return send(res, 200, { html: c.html });
    }
    if (req.method === 'POST' && (m = /^\/campaigns\/([^/]+)\/actions\/test$/.exec(path))) {
      const c = campaign(m[1]);
      const body = (await readBody(req)) as { test_emails?: string[]; send_type?: string };
      if (!Array.isArray(body.test_emails) || !body.test_emails.length)
        throw new HttpError(400, 'test_emails is required.');
      await mail(c, body.test_emails, true);
      c.testSentTo.push(...body.test_emails);
      return send(res, 204, undefined);
    }
    if (req.method === 'POST' && (m = /^\/campaigns\/([^/]+)\/actions\/send$/.exec(path))) {
      const c = campaign(m[1]);
      if (c.status === 'sent') throw new HttpError(400, 'This campaign has already been sent.');
      if (!c.html) throw new HttpError(400, 'The campaign has no content.');
      c.status = 'sending';
      const to = recipientsOf(c);
      await mail(c, to, false);
      c.sentTo.push(...to);
      c.status = 'sent';
      return send(res, 204, undefined);
    }
    throw new HttpError(404, `The requested resource ${path} was not found.`);
  }

  // ---- Campaign-Monitor-type ----
  async function campaignMonitor(req: IncomingMessage, res: ServerResponse, path: string) {
    const key = keyOf(req, 'campaign-monitor');
    const clients = () => [
      ...new Set(
        [...lists.values()]
          .filter((l) => l.provider === 'campaign-monitor' && l.apiKey === key)
          .map((l) => l.clientId ?? ''),
      ),
    ];
    const client = (id: string) => {
      if (!clients().includes(id)) throw new HttpError(400, `Invalid ClientID ${id}`, 102);
      return id;
    };
    let m: RegExpExecArray | null;
    if (req.method === 'GET' && path === '/clients.json')
      return send(
        res,
        200,
        clients().map((id) => ({ ClientID: id, Name: `Client ${id}` })),
      );
    if (req.method === 'GET' && (m = /^\/lists\/([^/]+)\/stats\.json$/.exec(path))) {
      const list = listOf('campaign-monitor', key, decodeURIComponent(m[1]));
      return send(res, 200, {
        TotalActiveSubscribers: list.members.length,
        TotalUnsubscribes: 0,
        TotalDeleted: 0,
        TotalBounces: 0,
      });
    }
    if (req.method === 'POST' && (m = /^\/campaigns\/([^/]+)\/fromtemplate\.json$/.exec(path))) {
      const clientId = client(decodeURIComponent(m[1]));
      const body = (await readBody(req)) as {
        Name?: string;
        Subject?: string;
        FromName?: string;
        FromEmail?: string;
        ReplyTo?: string;
        ListIDs?: string[];
        SegmentIDs?: string[];
        TemplateID?: string;
        TemplateContent?: { Multilines?: Array<{ Content?: string }> };
      };
      if (!body.Subject) throw new HttpError(400, 'Campaign Subject Required', 304);
      if (!body.FromEmail) throw new HttpError(400, 'Invalid From Email Address', 303);
      if (!body.TemplateID) throw new HttpError(400, 'Invalid TemplateID', 403);
      const listId = body.ListIDs?.[0] ?? '';
      const list = listOf('campaign-monitor', key, listId);
      if (list.clientId !== clientId)
        throw new HttpError(400, `List ${listId} does not belong to client ${clientId}`, 101);
      const id = randomUUID().replace(/-/g, '');
      campaigns.set(id, {
        id,
        provider: 'campaign-monitor',
        apiKey: key,
        listId,
        segmentId: body.SegmentIDs?.[0] ?? null,
        templateId: body.TemplateID,
        subject: body.Subject,
        title: body.Name ?? '',
        fromName: body.FromName ?? '',
        replyTo: body.ReplyTo ?? body.FromEmail,
        html: TEMPLATE(body.TemplateContent?.Multilines?.[0]?.Content ?? '', body.Subject),
        status: 'save',
        testSentTo: [],
        sentTo: [],
      });
      return send(res, 201, id);
    }
    const campaign = (id: string) => {
      const c = campaigns.get(id);
      if (!c || c.provider !== 'campaign-monitor' || c.apiKey !== key)
        throw new HttpError(400, `Invalid CampaignID ${id}`, 301);
      return c;
    };
    if (req.method === 'POST' && (m = /^\/campaigns\/([^/]+)\/sendpreview\.json$/.exec(path))) {
      const c = campaign(m[1]);
      const body = (await readBody(req)) as { PreviewRecipients?: string[] };
      if (!Array.isArray(body.PreviewRecipients) || !body.PreviewRecipients.length)
        throw new HttpError(400, 'No preview recipients', 333);
      await mail(c, body.PreviewRecipients, true);
      c.testSentTo.push(...body.PreviewRecipients);
      // As Campaign Monitor answers: 200 and no body (its client reads none).
      return send(res, 200, '', 'application/json; charset=utf-8');
    }
    if (req.method === 'POST' && (m = /^\/campaigns\/([^/]+)\/send\.json$/.exec(path))) {
      const c = campaign(m[1]);
      if (c.status === 'sent') throw new HttpError(400, 'Campaign has already been sent', 331);
      const to = recipientsOf(c);
      await mail(c, to, false);
      c.sentTo.push(...to);
      c.status = 'sent';
      // As Campaign Monitor answers: 200 and no body (its client reads none).
      return send(res, 200, '', 'application/json; charset=utf-8');
    }
    if (req.method === 'GET' && (m = /^\/clients\/([^/]+)\/drafts\.json$/.exec(path))) {
      const clientId = client(decodeURIComponent(m[1]));
      const drafts = [...campaigns.values()].filter(
        (c) =>
          c.provider === 'campaign-monitor' &&
          c.status === 'save' &&
          lists.get(`campaign-monitor:${c.listId}`)?.clientId === clientId,
      );
      return send(
        res,
        200,
        drafts.map((c) => ({
          CampaignID: c.id,
          Name: c.title,
          Subject: c.subject,
          FromName: c.fromName,
          PreviewURL: previewUrlOf(c.id),
        })),
      );
    }
    if (req.method === 'GET' && (m = /^\/campaigns\/([^/]+)\/summary\.json$/.exec(path))) {
      const c = campaign(m[1]);
      return send(res, 200, {
        Recipients: c.sentTo.length,
        TotalOpened: 0,
        Clicks: 0,
        WebVersionURL: previewUrlOf(c.id),
      });
    }
    throw new HttpError(404, `No route ${req.method} ${path}`, 404);
  }

  /** The vendor's error shape: Mailchimp's problem+json under /3.0, Campaign Monitor's elsewhere. */
  const errorBody = (status: number, message: string, code: number, path: string): ErrorAnswer =>
    path.startsWith('/3.0/')
      ? {
          contentType: 'application/problem+json',
          body: {
            type: `https://mailchimp.com/developer/marketing/docs/errors/#${status}`,
            title:
              status === 429
                ? 'Too Many Requests'
                : status === 401
                  ? 'API Key Invalid'
                  : status === 404
                    ? 'Resource Not Found'
                    : status >= 500
                      ? 'Internal Server Error'
                      : 'Invalid Resource',
            status,
            detail: message,
            instance: randomUUID(),
          },
        }
      : { contentType: 'application/json', body: { Code: code, Message: message, ResultData: null } };

  /** One key's open requests beyond the vendor's limit answer 429, as the real APIs do. */
  const limited = async (ctx: RouteContext, call: () => Promise<void>) => {
    const auth = ctx.req.headers.authorization ?? '';
    const openNow = (open.get(auth) ?? 0) + 1;
    if (openNow > maxOpen) {
      const answer = errorBody(
        429,
        `You have exceeded the limit of ${maxOpen} simultaneous connections.`,
        429,
        ctx.url.pathname,
      );
      return sendJson(ctx.res, 429, answer.body, { 'retry-after': '1' }, answer.contentType);
    }
    open.set(auth, openNow);
    try {
      if (options.latencyMs) await new Promise((r) => setTimeout(r, options.latencyMs));
      await call();
    } finally {
      open.set(auth, (open.get(auth) ?? 1) - 1);
    }
  };

  const failNext = (times: number, status: number, retryAfterSeconds = 1) => {
    server.faults.set({ kind: 'fail', route: 'api', times, status, retryAfterSeconds });
    return { times, status, retryAfter: retryAfterSeconds };
  };

  const control = { faultable: false } as const;
  const routes: StandInRoute[] = [
    {
      method: '*',
      path: /^\/3\.0\//,
      name: 'mailchimp',
      group: 'api',
      handle: (ctx) =>
        limited(ctx, () => mailchimp(ctx.req, ctx.res, ctx.url.pathname.slice('/3.0'.length), ctx.query)),
    },
    {
      method: '*',
      path: /^\/api\/v3\.3\//,
      name: 'campaign-monitor',
      group: 'api',
      handle: (ctx) =>
        limited(ctx, () => campaignMonitor(ctx.req, ctx.res, ctx.url.pathname.slice('/api/v3.3'.length))),
    },
    {
      ...control,
      method: 'GET',
      path: '/standin/campaigns',
      name: 'campaigns',
      handle: ({ res }) => send(res, 200, [...campaigns.values()]),
    },
    {
      ...control,
      method: 'GET',
      path: /^\/standin\/campaigns\/([^/]+)\/preview$/,
      name: 'preview',
      handle: ({ res, params }) => {
        const c = campaigns.get(params[0]);
        return c
          ? send(res, 200, c.html, 'text/html; charset=utf-8')
          : send(res, 404, 'Not found', 'text/plain');
      },
    },
    {
      ...control,
      method: 'POST',
      path: '/standin/fail',
      name: 'fail',
      handle: async ({ req, res }) => {
        const body = (await readBody(req)) as { status?: number; times?: number; retryAfterSeconds?: number };
        return send(
          res,
          200,
          failNext(Number(body.times ?? 1), Number(body.status ?? 500), Number(body.retryAfterSeconds ?? 1)),
        );
      },
    },
    {
      ...control,
      method: 'POST',
      path: '/standin/lists',
      name: 'lists',
      handle: async ({ req, res }) => {
        const list = (await readBody(req)) as StandInList;
        if (!list?.provider || !list.apiKey || !list.listId || !Array.isArray(list.members))
          throw new HttpError(400, 'provider, apiKey, listId and members are required');
        lists.set(`${list.provider}:${list.listId}`, list);
        return send(res, 200, { ok: true });
      },
    },
  ];

  const server = await startStandInServer({
    port: options.port,
    host: options.host,
    routes,
    errorBody,
    faults: options.faults,
    health: () => ({ ok: true, lists: lists.size, campaigns: campaigns.size }),
    onClose: () => transport?.close(),
  });
  url = server.url;
  return {
    url,
    port: server.port,
    campaigns: () => [...campaigns.values()],
    addList: (list) => void lists.set(`${list.provider}:${list.listId}`, list),
    failNext: (times, status, retryAfterSeconds = 1) => void failNext(times, status, retryAfterSeconds),
    requests: () => server.requests('api'),
    faults: server.faults,
    close: () => server.close(),
  };
}
