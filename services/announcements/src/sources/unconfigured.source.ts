import { AsxSource, AsxSourceOptions } from './asx.source';
import { SourceNotConfiguredError } from './source';

/** The services that exist in system settings but have no public API we know of. */
export type VendorServiceName = 'westpac' | 'iress';

/** The environment variable that holds each service's base URL. */
export const BASE_URL_VARIABLES = {
  asx: 'ASX_BASE_URL',
  asx2: 'ASX2_BASE_URL',
  westpac: 'WESTPAC_BASE_URL',
  iress: 'IRESS_BASE_URL',
} as const;

/** The one wording of a missing base URL: shown when saving settings and when a poll cannot start. */
export function notConfiguredMessage(name: string, variable: string): string {
  return `The ${name} announcement service needs ${variable}, which is not configured`;
}

/**
 * The westpac or iress source. Neither publishes an API we know of, so a base URL is required and is
 * assumed to speak the ASX per-company shape (`/asx/1/company/{CODE}/announcements` with
 * `paging_next_url`), e.g. a vendor proxy built to that shape; without one, SourceNotConfiguredError.
 */
export function createVendorSource(
  name: VendorServiceName,
  baseUrl: string | undefined,
  options: Pick<
    AsxSourceOptions,
    'timeoutMs' | 'documents' | 'maxAttempts' | 'retryDelayMs' | 'maxConcurrent' | 'perMinute'
  >,
): AsxSource {
  if (!baseUrl) throw new SourceNotConfiguredError(notConfiguredMessage(name, BASE_URL_VARIABLES[name]));
  return new AsxSource({ name, baseUrl, ...options });
}
