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
  /** System settings' useNightmare: resolve terms pages in headless Chromium. */
  useBrowser: boolean;
  chromiumPath: string;
  /** The mock's clock (tests). */
  now?: () => Date;
}

/** A source that may hold a browser: close it when the source is replaced or the process stops. */
export type ClosableAnnouncementSource = AnnouncementSource & { close(): Promise<void> };

/** Why `name` cannot be used as configured (the message for saving it), or null when it can. */
export function sourceConfigProblem(name: AnnouncementServiceName, options: SourceOptions): string | null {
  switch (name) {
    case 'mock':
      return null;
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
  const documents = new DocumentFetcher({
    timeoutMs: options.timeoutMs,
    maxBytes: options.maxPdfBytes,
    useBrowser: options.useBrowser,
    chromiumPath: options.chromiumPath,
  });
  const { timeoutMs } = options;
  switch (name) {
    case 'asx':
      return new AsxSource({ baseUrl: options.asxBaseUrl ?? '', timeoutMs, documents });
    case 'asx2':
      return new Asx2Source({
        baseUrl: options.asx2BaseUrl ?? '',
        asxBaseUrl: options.asxBaseUrl ?? '',
        timeoutMs,
        documents,
      });
    case 'westpac':
      return createVendorSource('westpac', options.westpacBaseUrl, { timeoutMs, documents });
    case 'iress':
      return createVendorSource('iress', options.iressBaseUrl, { timeoutMs, documents });
  }
}
