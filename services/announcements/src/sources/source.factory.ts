import { MOCK_IN_PRODUCTION_MESSAGE } from '../config';
import { AsxSource } from './asx.source';
import { Asx2Source } from './asx2.source';
import { DocumentFetcher } from './document-fetcher';
import { MockSource } from './mock.source';
import { AnnouncementServiceName, AnnouncementSource, SourceNotConfiguredError } from './source';
import { BASE_URL_VARIABLES, createVendorSource, notConfiguredMessage } from './unconfigured.source';

/** What the sources are built from: the service's config plus system settings' browser mode. */
export interface SourceOptions {
  asxBaseUrl?: string;
  asx2BaseUrl?: string;
  westpacBaseUrl?: string;
  iressBaseUrl?: string;
  /** Largest document accepted (MAX_PDF_BYTES). */
  maxPdfBytes: number;
  /** Per request (SOURCE_TIMEOUT_MS). */
  timeoutMs: number;
  /** Public hosts documents may come from besides the feeds' (DOCUMENT_HOSTS); default ASX_DOCUMENT_HOSTS. */
  documentHosts?: readonly string[];
  /** Attempts of one request when a feed is busy or down (default 1: the poller retries), and the first backoff delay. */
  maxAttempts?: number;
  retryDelayMs?: number;
  /** Per vendor: requests open at once (SOURCE_MAX_CONCURRENT) and per minute (SOURCE_MAX_PER_MINUTE). */
  maxConcurrent?: number;
  perMinute?: number;
  /** System settings' useNightmare: resolve terms pages in headless Chromium. */
  useBrowser: boolean;
  chromiumPath: string;
  /** NODE_ENV=production: the mock source is refused (MOCK_IN_PRODUCTION_MESSAGE). */
  production?: boolean;
  /** The mock's clock (tests). */
  now?: () => Date;
}

/** A source that may hold a browser: close it when the source is replaced or the process stops. */
export type ClosableAnnouncementSource = AnnouncementSource & { close(): Promise<void> };

/** Why `name` cannot be used as configured (the message for saving it), or null when it can. */
export function sourceConfigProblem(name: AnnouncementServiceName, options: SourceOptions): string | null {
  switch (name) {
    case 'mock':
      // A settings row saved as mock before production refused it does not poll either.
      return options.production ? MOCK_IN_PRODUCTION_MESSAGE : null;
    case 'asx':
      return options.asxBaseUrl ? null : notConfiguredMessage('asx', BASE_URL_VARIABLES.asx);
    case 'asx2':
      if (!options.asx2BaseUrl) return notConfiguredMessage('asx2', BASE_URL_VARIABLES.asx2);
      // The market feed has no history: each year's announcements come from the per-company feed.
      return options.asxBaseUrl ? null : notConfiguredMessage('asx2', BASE_URL_VARIABLES.asx);
    case 'westpac':
      return options.westpacBaseUrl ? null : notConfiguredMessage('westpac', BASE_URL_VARIABLES.westpac);
    case 'iress':
      return options.iressBaseUrl ? null : notConfiguredMessage('iress', BASE_URL_VARIABLES.iress);
  }
}

/** The source system settings chose; SourceNotConfiguredError when it cannot work as configured. */
export function createSource(
  name: AnnouncementServiceName,
  options: SourceOptions,
): ClosableAnnouncementSource {
  const problem = sourceConfigProblem(name, options);
  if (problem) throw new SourceNotConfiguredError(problem);
  if (name === 'mock') return new MockSource({ now: options.now });
  // Documents only from the chosen service's own base URLs and the public document hosts.
  const baseUrls = {
    asx: [options.asxBaseUrl],
    asx2: [options.asx2BaseUrl, options.asxBaseUrl],
    westpac: [options.westpacBaseUrl],
    iress: [options.iressBaseUrl],
  }[name];
  const { maxAttempts, retryDelayMs, maxConcurrent, perMinute } = options;
  const limits = { maxAttempts, retryDelayMs, maxConcurrent, perMinute };
  const documents = new DocumentFetcher({
    timeoutMs: options.timeoutMs,
    baseUrls,
    allowedHosts: options.documentHosts,
    ...limits,
    maxBytes: options.maxPdfBytes,
    useBrowser: options.useBrowser,
    chromiumPath: options.chromiumPath,
  });
  const { timeoutMs } = options;
  switch (name) {
    case 'asx':
      return new AsxSource({
        baseUrl: options.asxBaseUrl ?? '',
        timeoutMs,
        documents,
        ...limits,
      });
    case 'asx2':
      return new Asx2Source({
        baseUrl: options.asx2BaseUrl ?? '',
        asxBaseUrl: options.asxBaseUrl ?? '',
        timeoutMs,
        documents,
        ...limits,
      });
    case 'westpac':
      return createVendorSource('westpac', options.westpacBaseUrl, {
        timeoutMs,
        documents,
        ...limits,
      });
    case 'iress':
      return createVendorSource('iress', options.iressBaseUrl, {
        timeoutMs,
        documents,
        ...limits,
      });
  }
}
