import {
  vendorCall,
  VendorError,
  VendorHttpClient,
  VendorRequestRefusedError,
  VendorResponse,
} from '@irp/platform';
import type { LookupFunction } from 'node:net';
import type { Browser, BrowserContext, Route } from 'playwright-core';
import { sandboxedLaunchOptions } from './chromium-launch';
import { ASX_DOCUMENT_HOSTS, feedClient, SAYS_NOTHING, sourceError } from './http';
import { DocumentRefusedError, SourceDocument, SourceUnavailableError } from './source';

export const DEFAULT_MAX_PDF_BYTES = 20 * 1024 * 1024;
export const DEFAULT_CHROMIUM_PATH = '/usr/bin/chromium';

export interface DocumentFetcherOptions {
  timeoutMs: number;
  /**
   * The announcement services' configured base URLs: documents are fetched from their hosts (a stand-in
   * on 127.0.0.1 included) and from `allowedHosts`, never from a host a third-party page names otherwise.
   */
  baseUrls: ReadonlyArray<string | undefined>;
  /** Public hosts documents may come from; default ASX_DOCUMENT_HOSTS. Private addresses are refused. */
  allowedHosts?: readonly string[];
  /** Attempts when the host is busy or down (default 1: the poller retries), and the first backoff delay. */
  maxAttempts?: number;
  retryDelayMs?: number;
  /** Requests open at once and per minute to this service's hosts (see SOURCE_MAX_CONCURRENT). */
  maxConcurrent?: number;
  perMinute?: number;
  /** DNS lookup (tests). */
  lookup?: LookupFunction;
  /** Largest document accepted; default 20 MB. */
  maxBytes?: number;
  /** Resolve terms pages in headless Chromium (system settings' useNightmare) instead of parsing their HTML. */
  useBrowser?: boolean;
  /** The system's Chromium (CHROMIUM_PATH); never a browser downloaded by Playwright. */
  chromiumPath?: string;
}

interface Fetched {
  bytes: Buffer;
  finalUrl: string;
  contentType: string;
}

/** '20 MB', '1.5 MB', '4 KB', '900 bytes': the limit as a person reads it in the refusal. */
export function formatByteLimit(bytes: number): string {
  const trim = (n: number) => String(Number(n.toFixed(1)));
  if (bytes >= 1024 * 1024) return `${trim(bytes / (1024 * 1024))} MB`;
  if (bytes >= 1024) return `${trim(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}

const isPdf = (bytes: Buffer) => bytes.subarray(0, 4).toString('latin1') === '%PDF';

const looksLikeHtml = (fetched: Fetched) =>
  /html/i.test(fetched.contentType) || /^\s*</.test(fetched.bytes.subarray(0, 64).toString('latin1'));

function notPdf(fetched: Fetched): DocumentRefusedError {
  if (fetched.bytes.length === 0) return new DocumentRefusedError('not a PDF (empty)', fetched.finalUrl);
  const start = fetched.bytes
    .subarray(0, 4)
    .toString('latin1')
    .replace(/[^\x20-\x7e]/g, '?');
  return new DocumentRefusedError(`not a PDF (starts with "${start}")`, fetched.finalUrl);
}

const decodeEntities = (text: string) =>
  text
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/**
 * The PDF link of an ASX terms page: its `<input type="hidden" name="pdfURL" value="...">`, resolved against
 * the page's URL; null when the page has none. Attributes may come in any order and either quote.
 */
export function findPdfUrlInHtml(html: string, pageUrl: string): string | null {
  for (const [tag] of html.matchAll(/<input\b[^>]*>/gi)) {
    const attributes = new Map<string, string>();
    for (const m of tag.matchAll(/([a-z_:][-a-z0-9_:.]*)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/gi)) {
      attributes.set(m[1].toLowerCase(), decodeEntities(m[2] ?? m[3] ?? m[4] ?? ''));
    }
    const value = attributes.get('value')?.trim();
    if (attributes.get('name')?.toLowerCase() === 'pdfurl' && value)
      return new URL(value, pageUrl).toString();
  }
  return null;
}

/** Set by the guarded client itself, or about a connection Chromium does not have. */
const REQUEST_HEADERS_NOT_FORWARDED = new Set([
  'host',
  'content-length',
  'connection',
  'keep-alive',
  'accept-encoding',
]);
/** The body is handed over whole and decoded; Chromium sets these for the answer it is given. */
const RESPONSE_HEADERS_NOT_FORWARDED = new Set([
  'content-length',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-encoding',
]);

/** Headers as Chromium's interception takes them: one string each (a repeated one, e.g. set-cookie, by line). */
function forwarded(
  headers: Record<string, string | string[] | undefined>,
  dropped: ReadonlySet<string>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || dropped.has(name.toLowerCase()) || name.startsWith(':')) continue;
    out[name] = Array.isArray(value) ? value.join('\n') : value;
  }
  return out;
}

/** The Cookie header of the page's context for `url`, if it holds any. */
async function cookieHeader(route: Route, url: string): Promise<string | undefined> {
  const context = route.request().frame().page().context();
  const cookies = await context.cookies(url).catch(() => []);
  return cookies.length ? cookies.map((c) => `${c.name}=${c.value}`).join('; ') : undefined;
}

/**
 * Downloads announcement documents for both ASX sources: follows the terms page the ASX puts in front of
 * many PDFs (by parsing it, or in headless Chromium when browser mode is on), and accepts only a PDF
 * within the size limit, counted while streaming so a huge or endless answer is never held in memory.
 */
export class DocumentFetcher {
  readonly maxBytes: number;
  private readonly http: VendorHttpClient;
  private browser: Promise<Browser> | undefined;
  private launches = 0;

  constructor(private readonly options: DocumentFetcherOptions) {
    this.maxBytes = options.maxBytes ?? DEFAULT_MAX_PDF_BYTES;
    this.http = feedClient({
      vendor: 'documents',
      baseUrls: options.baseUrls,
      allowedHosts: options.allowedHosts ?? ASX_DOCUMENT_HOSTS,
      timeoutMs: options.timeoutMs,
      maxAttempts: options.maxAttempts,
      retryDelayMs: options.retryDelayMs,
      maxConcurrent: options.maxConcurrent,
      perMinute: options.perMinute,
      maxResponseBytes: this.maxBytes,
      lookup: options.lookup,
    });
  }

  async download(url: string): Promise<SourceDocument> {
    const first = await this.fetchLimited(url);
    if (isPdf(first.bytes)) return { bytes: first.bytes, finalUrl: first.finalUrl };
    if (!looksLikeHtml(first)) throw notPdf(first);

    const resolved = this.options.useBrowser
      ? await this.resolveInBrowser(first.finalUrl)
      : { pdfUrl: findPdfUrlInHtml(first.bytes.toString('utf8'), first.finalUrl), cookie: undefined };
    if (!resolved.pdfUrl) {
      const hint = this.options.useBrowser ? '' : '; browser mode may resolve it';
      const refused = notPdf(first);
      throw new DocumentRefusedError(
        `${refused.message}: an HTML page without a pdfURL link${hint}`,
        refused.url,
      );
    }
    const second = await this.fetchLimited(resolved.pdfUrl, resolved.cookie);
    if (isPdf(second.bytes)) return { bytes: second.bytes, finalUrl: second.finalUrl };
    throw notPdf(second);
  }

  /** How many browsers this fetcher has launched (one is shared by all downloads until close()). */
  get browsersLaunched(): number {
    return this.launches;
  }

  /** Frees the shared browser, if one was launched. */
  async close(): Promise<void> {
    const browser = this.browser;
    this.browser = undefined;
    if (!browser) return;
    try {
      await (await browser).close();
    } catch {
      // A browser that failed to launch or already died has nothing left to close.
    }
  }

  private tooLarge(url: string) {
    return new DocumentRefusedError(`larger than ${formatByteLimit(this.maxBytes)}`, url);
  }

  /**
   * A document's failure, decided once: too large, a link our guard refuses (a host not the vendor's, a
   * private address) or a missing or forbidden document (a 4xx) will not be cured by retrying, so the
   * announcement is kept without it (DocumentRefusedError); no answer, busy or failing is the source's outage.
   */
  private documentError(error: VendorError, url: string): Error {
    const at = error.url ?? url;
    if (error.kind === 'invalid-answer' && error.status === null) return this.tooLarge(at);
    if (error.kind === 'refused' && error.status === null)
      return new DocumentRefusedError(`refused: ${error.message}`, at);
    if (error.kind === 'refused' || error.kind === 'not-found' || error.kind === 'invalid-answer')
      return new DocumentRefusedError(`answered ${error.status}`, at);
    return sourceError(error, at);
  }

  /**
   * One document or terms page through the vendor client: the URL and every redirect hop must be an allowed
   * host at an address it may reach, and the size is counted while streaming so a huge or endless answer is
   * never held in memory.
   */
  private async fetchLimited(url: string, cookie?: string): Promise<Fetched> {
    let response: VendorResponse;
    try {
      response = await vendorCall(this.http, url, {
        headers: cookie ? { cookie } : {},
        maxResponseBytes: this.maxBytes,
        vendorMessage: SAYS_NOTHING,
      });
    } catch (error) {
      throw error instanceof VendorError ? this.documentError(error, url) : error;
    }
    const finalUrl = response.url;
    const type = response.headers['content-type'];
    return { bytes: response.body, finalUrl, contentType: (Array.isArray(type) ? type[0] : type) ?? '' };
  }

  private launch(): Promise<Browser> {
    if (!this.browser) {
      const executablePath = this.options.chromiumPath ?? DEFAULT_CHROMIUM_PATH;
      this.launches++;
      // Loaded on first use: pollers that never use browser mode do not pay for playwright-core.
      const launched = import('playwright-core')
        .then(({ chromium }) => chromium.launch(sandboxedLaunchOptions(executablePath)))
        .then((browser) => {
          // A crashed browser is launched afresh by the next download instead of failing every one after it.
          browser.on('disconnected', () => {
            if (this.browser === launched) this.browser = undefined;
          });
          return browser;
        })
        .catch((error: unknown) => {
          if (this.browser === launched) this.browser = undefined;
          const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
          throw new SourceUnavailableError(
            `Chromium could not be launched from ${executablePath}: ${reason}`,
          );
        });
      this.browser = launched;
    }
    return this.browser;
  }

  /**
   * Every request Chromium makes (the page, each redirect hop, scripts, images, the Agree button's target) is
   * fetched by the guarded vendor client and handed back to Chromium, which connects nowhere itself: the host
   * the vendor's and its address public (or a configured stand-in), checked when connecting, as for a
   * download. The client follows redirects, every hop checked (Chromium would connect to a redirect's target
   * itself): Chromium sees the final answer under the URL it asked for, finalUrl() maps it back. A refused
   * navigation refuses the document.
   */
  private guardBrowser(context: BrowserContext) {
    let refused: DocumentRefusedError | undefined;
    let reject: (error: DocumentRefusedError) => void = () => undefined;
    const navigationRefused = new Promise<never>((_, r) => (reject = r));
    navigationRefused.catch(() => undefined);
    const finalUrls = new Map<string, string>();
    const routed = context.route('**/*', async (route) => {
      const outcome = await this.fetchForBrowser(route, finalUrls);
      if (outcome && route.request().isNavigationRequest()) {
        refused ??= outcome;
        reject(outcome);
      }
    });
    // WebSockets, which no route sees, are closed unconnected; anything else goes nowhere (chromium-launch.ts).
    const installed = Promise.all([routed, context.routeWebSocket(/.*/, (socket) => socket.close())]);
    return {
      installed,
      navigationRefused,
      refusedNavigation: () => refused,
      finalUrl: (url: string) => finalUrls.get(url) ?? url,
    };
  }

  /** One of Chromium's requests through the guarded client; a refusal is returned (the request aborted). */
  private async fetchForBrowser(
    route: Route,
    finalUrls: Map<string, string>,
  ): Promise<DocumentRefusedError | undefined> {
    const request = route.request();
    const url = request.url();
    const method = request.method();
    // The page or context may be gone already (a download cancelled, the context closed): nothing to answer.
    const abort = (reason: 'blockedbyclient' | 'failed') => route.abort(reason).catch(() => undefined);
    try {
      if (method !== 'GET' && method !== 'POST')
        throw new VendorRequestRefusedError(`${method} ${url} is not fetched for a terms page`, url);
      const response = await this.http.request(url, {
        method,
        // headers() rather than allHeaders(), which waits for network details an intercepted request never
        // gets; the context's cookies (what the terms page set) go with it as Chromium would send them.
        headers: forwarded(
          { ...request.headers(), cookie: await cookieHeader(route, url) },
          REQUEST_HEADERS_NOT_FORWARDED,
        ),
        body: request.postDataBuffer() ?? undefined,
        retry: false,
        maxResponseBytes: this.maxBytes,
      });
      if (response.url !== url) finalUrls.set(url, response.url);
      await route
        .fulfill({
          status: response.status,
          headers: forwarded(response.headers, RESPONSE_HEADERS_NOT_FORWARDED),
          body: response.body,
        })
        .catch(() => undefined);
      return undefined;
    } catch (error) {
      if (error instanceof VendorRequestRefusedError) {
        await abort('blockedbyclient');
        return new DocumentRefusedError(`refused in Chromium: ${error.message}`, error.url);
      }
      await abort('failed');
      return undefined;
    }
  }

  /**
   * Opens the terms page in headless Chromium and finds the PDF's URL: the hidden pdfURL input once the page
   * has run its scripts, else where clicking its Agree/Accept button leads. The browser's cookies go with
   * the download, since the terms page may set the cookie that lets the PDF through.
   */
  private async resolveInBrowser(termsUrl: string): Promise<{ pdfUrl: string | null; cookie?: string }> {
    const browser = await this.launch();
    const context = await browser.newContext({ acceptDownloads: true });
    const guard = this.guardBrowser(context);
    try {
      await guard.installed;
      const page = await context.newPage();
      page.setDefaultTimeout(this.options.timeoutMs);
      await page.goto(termsUrl, { waitUntil: 'domcontentloaded' });
      const opened = page.url();

      let pdfUrl: string | null = null;
      const input = page.locator('input[name="pdfURL" i]').first();
      if ((await input.count()) > 0) {
        const value = (await input.getAttribute('value'))?.trim();
        if (value) pdfUrl = new URL(value, guard.finalUrl(page.url())).toString();
      }
      if (!pdfUrl) {
        const agree = page
          .getByRole('button', { name: /agree|accept/i })
          .or(page.getByRole('link', { name: /agree|accept/i }))
          .first();
        if ((await agree.count()) > 0) {
          // Following the button either navigates to the PDF (shown as a download by headless Chromium) or to
          // another page; whichever comes first names the URL.
          const download = page.waitForEvent('download').then((d) => {
            const u = guard.finalUrl(d.url());
            void d.cancel().catch(() => undefined);
            return u;
          });
          const navigation = page
            .waitForURL((u) => u.toString() !== opened)
            .then(() => guard.finalUrl(page.url()));
          download.catch(() => undefined);
          navigation.catch(() => undefined);
          await agree.click();
          pdfUrl = await Promise.race([download, navigation, guard.navigationRefused]);
        }
      }
      if (!pdfUrl) return { pdfUrl: null };
      const cookies = await context.cookies(pdfUrl);
      const cookie = cookies.map((c) => `${c.name}=${c.value}`).join('; ');
      return { pdfUrl, cookie: cookie || undefined };
    } catch (error) {
      if (error instanceof DocumentRefusedError || error instanceof SourceUnavailableError) throw error;
      // A page Chromium could not open because the guard refused where it (or a redirect) led is refused
      // for good, as the same link fetched without the browser would be.
      const refused = guard.refusedNavigation();
      if (refused) throw refused;
      const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
      throw new SourceUnavailableError(`the terms page ${termsUrl} could not be read in Chromium: ${reason}`);
    } finally {
      await context.close().catch(() => undefined);
    }
  }
}
